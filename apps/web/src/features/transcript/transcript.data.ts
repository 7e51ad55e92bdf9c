import type { NativeMessage, StorageGeneration } from '@loupe/domain'
import { batch, createMemo, createSignal, onCleanup, type Accessor } from 'solid-js'
import type { Api, RouterInputs, RouterOutputs } from '../../lib/trpc'

/** A session as the API addresses it; without `storage` the API prefers the 2.x copy. */
export interface TranscriptRef {
  sessionID: string
  storage?: StorageGeneration
}

interface Page {
  messages: NativeMessage[]
  older: string | null
  newer: string | null
}

export type TranscriptStart = { around: string } | { anchor: 'latest' | 'earliest' }

/** Where Loupe pruned a message: parts removed in all, and when it last did. */
export type PruneNote = RouterOutputs['sessions']['pruneNotes']['notes'][number]

export interface TranscriptWindow {
  messages: Accessor<NativeMessage[]>
  /** Notes of the loaded messages that Loupe pruned, by message id. */
  notes: Accessor<ReadonlyMap<string, PruneNote>>
  total: Accessor<number>
  loading: Accessor<'open' | 'older' | 'newer' | false>
  error: Accessor<unknown>
  hasOlder: Accessor<boolean>
  hasNewer: Accessor<boolean>
  open: (start: TranscriptStart) => Promise<void>
  /** Resolve true when pages were added; the caller keeps the scroll position. */
  loadOlder: () => Promise<boolean>
  loadNewer: () => Promise<boolean>
  /**
   * Re-read these messages from the native rows (after a prune, here or in another tab) and swap
   * them in place. Each call invalidates earlier reads of the same message: a late answer never
   * overwrites a newer invalidation, and the remainder is never synthesized locally.
   */
  refresh: (messageIDs: readonly string[]) => Promise<void>
}

export interface TranscriptOptions {
  pageSize?: number
  /** Pages kept in the DOM; the far end is dropped beyond this, so a 10,000-message session stays light. */
  maxPages?: number
}

/**
 * A sliding window of transcript pages. Each page keeps its own cursors, so dropping pages at
 * one end still leaves valid cursors to load them again.
 */
export function createTranscript(api: Api, ref: Accessor<TranscriptRef>, options: TranscriptOptions = {}): TranscriptWindow {
  const pageSize = options.pageSize ?? 50
  const maxPages = options.maxPages ?? 4
  const [pages, setPages] = createSignal<Page[]>([])
  const [total, setTotal] = createSignal(0)
  const [loading, setLoading] = createSignal<'open' | 'older' | 'newer' | false>(false)
  const [error, setError] = createSignal<unknown>()
  const [notes, setNotes] = createSignal<ReadonlyMap<string, PruneNote>>(new Map())
  let controller: AbortController | undefined
  onCleanup(() => controller?.abort())

  // Best effort: a transcript without its notes still reads right, so a failure is not shown.
  async function readNotes(messageIDs: readonly string[]) {
    if (messageIDs.length === 0) return
    try {
      const { notes: found } = await api.sessions.pruneNotes.query({ ...ref(), messageIDs: [...messageIDs] })
      setNotes((current) => {
        const next = new Map(current)
        for (const id of messageIDs) next.delete(id)
        for (const note of found) next.set(note.messageID, note)
        return next
      })
    } catch {
      // As above.
    }
  }
  const withNotes = <T extends { messages: NativeMessage[] } | undefined>(page: T): T => {
    if (page) void readNotes(page.messages.map((m) => m.id as string))
    return page
  }

  async function fetchPage(kind: 'open' | 'older' | 'newer', extra: Partial<RouterInputs['sessions']['messages']>) {
    if (kind !== 'open' && loading()) return undefined
    controller?.abort()
    const mine = (controller = new AbortController())
    batch(() => {
      setLoading(kind)
      setError(undefined)
    })
    try {
      const page = await api.sessions.messages.query({ ...ref(), limit: pageSize, ...extra }, { signal: mine.signal })
      if (mine.signal.aborted) return undefined
      setTotal(page.total)
      return page
    } catch (caught) {
      if (!mine.signal.aborted) setError(caught)
      return undefined
    } finally {
      if (!mine.signal.aborted) setLoading(false)
    }
  }

  const epochs = new Map<string, number>()
  async function refreshOne(messageID: string) {
    const epoch = (epochs.get(messageID) ?? 0) + 1
    epochs.set(messageID, epoch)
    if (!pages().some((p) => p.messages.some((m) => m.id === messageID))) return
    // A few tries: an answer that lost the race to a newer invalidation is dropped, not applied.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fresh = await api.sessions.message.query({ ...ref(), messageID })
        if (epochs.get(messageID) !== epoch) return
        setPages((current) => current.map((p) => ({ ...p, messages: p.messages.map((m) => (m.id === messageID ? fresh : m)) })))
        void readNotes([messageID])
        return
      } catch {
        if (epochs.get(messageID) !== epoch) return
        await new Promise((r) => setTimeout(r, 200 * (attempt + 1)))
      }
    }
  }

  const messages = createMemo(() => pages().flatMap((p) => p.messages))
  return {
    messages,
    notes,
    total,
    loading,
    error,
    hasOlder: () => (pages()[0]?.older ?? null) !== null,
    hasNewer: () => (pages().at(-1)?.newer ?? null) !== null,
    async open(start) {
      setPages([])
      setNotes(new Map())
      const page = withNotes(await fetchPage('open', start))
      if (page) setPages([page])
    },
    async loadOlder() {
      const cursor = pages()[0]?.older
      if (!cursor) return false
      const page = withNotes(await fetchPage('older', { cursor }))
      if (!page || page.messages.length === 0) return false
      setPages((current) => [page, ...current].slice(0, maxPages))
      return true
    },
    refresh: async (messageIDs) => {
      await Promise.all(messageIDs.map(refreshOne))
    },
    async loadNewer() {
      const cursor = pages().at(-1)?.newer
      if (!cursor) return false
      const page = withNotes(await fetchPage('newer', { cursor }))
      if (!page || page.messages.length === 0) return false
      setPages((current) => [...current, page].slice(-maxPages))
      return true
    },
  }
}

import { batch, createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'
import type { Api, RouterOutputs } from '../../lib/trpc'

type ImagesOutput = RouterOutputs['gallery']['images']
export type GalleryPage = Extract<ImagesOutput, { status: 'page' }>
export type GalleryEntry = GalleryPage['entries'][number]
export type ImageEntry = Extract<GalleryEntry, { kind: 'image' }>
export type GenerationEntry = Extract<GalleryEntry, { kind: 'generation' }>

/** A page as both doors answer it (the owner's procedure and the share link's route). */
export type FeedPage =
  | { status: 'page'; entries: GalleryEntry[]; cursor: string | null }
  | { status: 'blocked'; reason: 'limit'; messageID: string; bytes: number; resume: string | null }
  | { status: 'blocked'; reason: 'conflict' }

export type FetchPage = (cursor: string | undefined, signal: AbortSignal) => Promise<FeedPage>

/** A message the gallery could not read (over 16 MiB) and the cursor past it. */
export interface Blocked {
  bytes: number
  resume: string | null
}

export interface GalleryFeed {
  entries: Accessor<GalleryEntry[]>
  loading: Accessor<boolean>
  error: Accessor<unknown>
  /** No more pages. */
  done: Accessor<boolean>
  blocked: Accessor<Blocked | undefined>
  /** Fetch pages until `minEntries` more entries arrived, the gallery ends, or 12 pages were read. */
  loadMore: (minEntries?: number) => Promise<void>
  /** Continue past a message that was too large to read. */
  skipBlocked: () => void
  retry: () => void
}

/**
 * The images of one session, newest first, page by page. Pages are bounded by rows read, not by
 * images found, so a stretch of text-only messages can answer few or none: `loadMore` keeps going
 * until enough arrived. A cursor refused as `conflict` (a revert changed the transcript) restarts.
 */
export function createGalleryFeed(key: Accessor<string | null>, fetchPage: FetchPage): GalleryFeed {
  const [entries, setEntries] = createSignal<GalleryEntry[]>([])
  const [cursor, setCursor] = createSignal<string | null | undefined>(undefined)
  const [loading, setLoading] = createSignal(false)
  const [error, setError] = createSignal<unknown>()
  const [blocked, setBlocked] = createSignal<Blocked>()
  let controller: AbortController | undefined
  let running: Promise<void> | undefined

  const done = () => cursor() === null && blocked() === undefined

  async function run(minEntries: number, restarted = false): Promise<void> {
    const mine = controller ?? (controller = new AbortController())
    let got = 0
    setLoading(true)
    setError(undefined)
    try {
      for (let pages = 0; pages < 12 && got < minEntries && cursor() !== null && !blocked(); pages++) {
        const page = await fetchPage(cursor() ?? undefined, mine.signal)
        if (mine.signal.aborted) return
        if (page.status === 'blocked' && page.reason === 'conflict') {
          if (restarted) throw new Error('The gallery keeps changing; reload the page.')
          batch(() => {
            setEntries([])
            setCursor(undefined)
          })
          return run(minEntries, true)
        }
        if (page.status === 'blocked') {
          setBlocked({ bytes: page.bytes, resume: page.resume })
          break
        }
        got += page.entries.length
        batch(() => {
          setEntries((current) => [...current, ...page.entries])
          setCursor(page.cursor)
        })
      }
    } catch (caught) {
      if (!mine.signal.aborted) setError(caught)
    } finally {
      if (!mine.signal.aborted) setLoading(false)
    }
  }

  const loadMore = (minEntries = 24) => {
    if (running || key() === null || done() || blocked() || error()) return running ?? Promise.resolve()
    running = run(minEntries).finally(() => (running = undefined))
    return running
  }

  createEffect(
    on(key, () => {
      controller?.abort()
      controller = undefined
      running = undefined
      batch(() => {
        setEntries([])
        setCursor(undefined)
        setBlocked(undefined)
        setError(undefined)
      })
      void loadMore()
    }),
  )
  onCleanup(() => controller?.abort())

  return {
    entries,
    loading,
    error,
    done,
    blocked,
    loadMore,
    skipBlocked() {
      const b = blocked()
      if (!b) return
      batch(() => {
        setCursor(b.resume)
        setBlocked(undefined)
      })
      void loadMore()
    },
    retry() {
      setError(undefined)
      void loadMore()
    },
  }
}

export interface SessionRef {
  sessionID: string
  storage: 'v1' | 'v2'
}

/** The owner's feed: `gallery.images` with prompts asked for (granted only in an Images conversation). */
export function ownerFetch(api: Api, session: SessionRef): FetchPage {
  return (cursor, signal) => api.gallery.images.query({ ...session, prompts: true, ...(cursor ? { cursor } : {}) }, { signal })
}

/** URLs of one image in the owner's scope. */
export function ownerImageUrls(session: SessionRef) {
  const base = (entry: GalleryEntry) => `/api/sessions/${encodeURIComponent(session.sessionID)}/images/${entry.target}?storage=${session.storage}`
  return {
    thumb: (entry: GalleryEntry, size: 256 | 1024) => `${base(entry)}&size=${size}`,
    file: (entry: GalleryEntry, download: boolean) => `${base(entry)}${download ? '&download=1' : ''}`,
  }
}

export type ImageUrls = ReturnType<typeof ownerImageUrls>

/** Reasons `imageReference` refuses, said for a person. */
export const REFUSALS: Record<string, string> = {
  unverifiable: 'Loupe cannot verify that the file still holds this image: a later generation may have written it, or it is further back than the newest 32 messages.',
  outside: 'The file is outside the session’s directory.',
  changed: 'The file was written again after this image was read.',
  'not-gallery': 'Only images the agent read have a file to refer to; a pasted image does not.',
  missing: 'This image is no longer in the session.',
}

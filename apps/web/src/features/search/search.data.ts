import { batch, createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'
import type { Api, RouterInputs, RouterOutputs } from '../../lib/trpc'

export type SearchAnswer = RouterOutputs['history']['search']
export type SearchHit = SearchAnswer['hits'][number]
export type SearchKind = SearchHit['kind']
export type SearchInput = Omit<RouterInputs['history']['search'], 'cursor' | 'limit'>
export type IndexStatus = RouterOutputs['history']['status']

export interface SearchState {
  hits: Accessor<SearchHit[]>
  /** The last page's answer: mode, totals, notices, index state. */
  answer: Accessor<SearchAnswer | undefined>
  loading: Accessor<'initial' | 'more' | false>
  error: Accessor<unknown>
  hasMore: Accessor<boolean>
  loadMore: () => void
  retry: () => void
  /** Ask again from the first page (the index became ready). */
  refresh: () => void
  /** Stop walking the literal scan (it continues on "Load more"). */
  stop: () => void
}

/** While the index is being built, keep scanning until a page of hits has been found. */
const SCAN_FILL = 20

/**
 * Results for the current query and filters, with paging by cursor. A change aborts the request
 * in flight, so typing never shows an older answer last. In literal-scan mode (index not ready)
 * pages are bounded by time, so it keeps asking until it has a screenful or the scan ends.
 */
export function createSearch(api: Api, input: Accessor<SearchInput | null>, pageSize = 30): SearchState {
  const [hits, setHits] = createSignal<SearchHit[]>([])
  const [answer, setAnswer] = createSignal<SearchAnswer>()
  const [loading, setLoading] = createSignal<'initial' | 'more' | false>(false)
  const [error, setError] = createSignal<unknown>()
  let cursor: string | null = null
  let controller: AbortController | undefined
  let filling = false

  async function fetchPage(first: boolean) {
    controller?.abort()
    const current = input()
    if (!current) {
      batch(() => {
        setHits([])
        setAnswer(undefined)
        setLoading(false)
        setError(undefined)
      })
      cursor = null
      return
    }
    const mine = (controller = new AbortController())
    const after = first ? undefined : (cursor ?? undefined)
    if (first) filling = true
    batch(() => {
      setLoading(first ? 'initial' : 'more')
      setError(undefined)
    })
    try {
      const page = await api.history.search.query({ ...current, limit: pageSize, ...(after ? { cursor: after } : {}) }, { signal: mine.signal })
      if (mine.signal.aborted) return
      cursor = page.cursor
      batch(() => {
        setHits((previous) => (first ? page.hits : [...previous, ...page.hits]))
        setAnswer(page)
        setLoading(false)
      })
      if (filling && page.mode === 'scan' && page.cursor && hits().length < SCAN_FILL) void fetchPage(false)
      else filling = false
    } catch (caught) {
      if (mine.signal.aborted) return
      filling = false
      batch(() => {
        if (first) setHits([])
        setError(caught)
        setLoading(false)
      })
    }
  }

  createEffect(on(() => JSON.stringify(input()), () => void fetchPage(true)))
  onCleanup(() => controller?.abort())
  return {
    hits,
    answer,
    loading,
    error,
    hasMore: () => !!answer()?.cursor,
    loadMore: () => {
      if (!loading() && cursor) void fetchPage(false)
    },
    retry: () => void fetchPage(hits().length === 0),
    refresh: () => void fetchPage(true),
    stop: () => {
      filling = false
      controller?.abort()
      setLoading(false)
    },
  }
}

/**
 * The index's build progress, pushed by the server (SSE) while it changes. `onReady` fires once
 * when a build finishes while the page is open, so a literal-scan answer can be replaced by a
 * ranked one.
 */
export function createIndexStatus(api: Api, onReady: () => void): Accessor<IndexStatus | undefined> {
  const [status, setStatus] = createSignal<IndexStatus>()
  const subscription = api.history.progress.subscribe(undefined, {
    onData: (next) => {
      const before = status()?.state
      setStatus(next)
      if (before && before !== 'ready' && next.state === 'ready') onReady()
    },
  })
  onCleanup(() => subscription.unsubscribe())
  return status
}

import { createSignal, onCleanup, type Accessor } from 'solid-js'
import { createCursorList } from '../../lib/cursor-list'
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
  const list = createCursorList({
    key: input,
    fetch: (current: SearchInput, cursor, signal) => api.history.search.query({ ...current, limit: pageSize, ...(cursor ? { cursor } : {}) }, { signal }),
    read: (page: SearchAnswer) => ({ items: page.hits, cursor: page.cursor }),
    fillMore: (page, hits) => page.mode === 'scan' && hits.length < SCAN_FILL,
  })
  const { items: hits, page: answer, loading, error, hasMore, loadMore, retry, refresh, stop } = list
  return { hits, answer, loading, error, hasMore, loadMore, retry, refresh, stop }
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

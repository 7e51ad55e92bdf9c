import { createSignal, onCleanup, type Accessor } from 'solid-js'
import { createCursorList, type CursorList } from '../../lib/cursor-list'
import { createQuery } from '../../lib/query'
import type { Api, RouterInputs, RouterOutputs } from '../../lib/trpc'

export type SearchAnswer = RouterOutputs['history']['search']
export type SearchHit = SearchAnswer['hits'][number]
export type SearchKind = SearchHit['kind']
export type SearchInput = Omit<RouterInputs['history']['search'], 'cursor' | 'limit'>
export type IndexStatus = RouterOutputs['history']['status']

/** The hits' cursor list, under search's names: `hits` are its items, `answer` its last page. */
export type SearchState = Omit<CursorList<SearchHit, SearchAnswer>, 'items' | 'page'> & {
  hits: Accessor<SearchHit[]>
  /** The last page's answer: mode, totals, notices, index state. */
  answer: Accessor<SearchAnswer | undefined>
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
  const { items: hits, page: answer, ...rest } = list
  return { hits, answer, ...rest }
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

/** The tools history holds calls of (most used first), asked again when the index's state changes; null while it builds. */
export function createIndexedTools(api: Api, status: Accessor<IndexStatus | undefined>) {
  return createQuery(() => status()?.state ?? null, (_state, signal) => api.history.tools.query(undefined, { signal }))
}

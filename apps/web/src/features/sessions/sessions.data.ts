import type { Accessor } from 'solid-js'
import { createCursorList } from '../../lib/cursor-list'
import { createQuery } from '../../lib/query'
import type { Api, RouterInputs, RouterOutputs } from '../../lib/trpc'

export type SessionSummary = RouterOutputs['sessions']['list']['sessions'][number]
export type Project = RouterOutputs['sessions']['projects'][number]
export type SessionFilters = Omit<RouterInputs['sessions']['list'], 'cursor' | 'limit'>

export interface SessionListState {
  sessions: Accessor<SessionSummary[]>
  /** `initial` until the first page of the current filters arrives; `more` while paging. */
  loading: Accessor<'initial' | 'more' | false>
  error: Accessor<unknown>
  hasMore: Accessor<boolean>
  loadMore: () => void
  retry: () => void
  /** Reload from the first page (after something was added elsewhere). */
  refresh: () => void
}

/**
 * Sessions for the current filters, newest activity first, paged by the API's cursor. A filter
 * change aborts the request in flight, so fast typing never shows an older answer last.
 */
export function createSessionList(api: Api, filters: Accessor<SessionFilters>, pageSize = 50): SessionListState {
  const list = createCursorList({
    key: filters,
    fetch: (current: SessionFilters, cursor, signal) => api.sessions.list.query({ ...current, limit: pageSize, ...(cursor ? { cursor } : {}) }, { signal }),
    read: (page: RouterOutputs['sessions']['list']) => ({ items: page.sessions, cursor: page.cursor }),
    initialLoading: 'initial',
  })
  const { items: sessions, loading, error, hasMore, loadMore, retry, refresh } = list
  return { sessions, loading, error, hasMore, loadMore, retry, refresh }
}

/** Projects with session counts, for the project filter. */
export function createProjects(api: Api) {
  return createQuery(() => 'projects', (_key, signal) => api.sessions.projects.query(undefined, { signal }))
}

export type SessionDetail = RouterOutputs['sessions']['get']

/** One session with its parent and subagent sessions. */
export function createSessionDetail(api: Api, ref: Accessor<RouterInputs['sessions']['get'] | null>) {
  return createQuery(ref, (input, signal) => api.sessions.get.query(input, { signal }))
}

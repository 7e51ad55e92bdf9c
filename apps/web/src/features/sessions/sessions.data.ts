import type { Accessor } from 'solid-js'
import { createCursorList, type CursorList } from '../../lib/cursor-list'
import { createQuery } from '../../lib/query'
import type { Api, RouterInputs, RouterOutputs } from '../../lib/trpc'

export type SessionSummary = RouterOutputs['sessions']['list']['sessions'][number]
export type Project = RouterOutputs['sessions']['projects'][number]
export type SessionFilters = Omit<RouterInputs['sessions']['list'], 'cursor' | 'limit'>
export type SessionTotals = RouterOutputs['sessions']['list']['totals']

/** The session cursor list: `sessions` are its items (`loading` is `initial` until the first page). */
export type SessionListState = Pick<CursorList<SessionSummary, unknown>, 'loading' | 'error' | 'hasMore' | 'loadMore' | 'retry' | 'refresh'> & {
  sessions: Accessor<SessionSummary[]>
  /** Exact totals of the whole filtered list, as of the last page. */
  totals: Accessor<SessionTotals | undefined>
}

/**
 * Sessions for the current filters in the asked order, paged by the API's cursor. A filter
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
  return { sessions, totals: () => list.page()?.totals, loading, error, hasMore, loadMore, retry, refresh }
}

/** Projects with session counts for the list's toggles (subagents, archived), for the project filter. */
export function createProjects(api: Api, toggles: Accessor<NonNullable<RouterInputs['sessions']['projects']>> = () => ({})) {
  return createQuery(toggles, (key, signal) => api.sessions.projects.query(key, { signal }))
}

export type SessionDetail = RouterOutputs['sessions']['get']

/** One session with its parent and subagent sessions. */
export function createSessionDetail(api: Api, ref: Accessor<RouterInputs['sessions']['get'] | null>) {
  return createQuery(ref, (input, signal) => api.sessions.get.query(input, { signal }))
}

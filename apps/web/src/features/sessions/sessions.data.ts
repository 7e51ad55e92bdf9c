import { batch, createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'
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
  const [sessions, setSessions] = createSignal<SessionSummary[]>([])
  const [cursor, setCursor] = createSignal<string | null>(null)
  const [loading, setLoading] = createSignal<'initial' | 'more' | false>('initial')
  const [error, setError] = createSignal<unknown>()
  let controller: AbortController | undefined

  async function fetchPage(first: boolean) {
    controller?.abort()
    const mine = (controller = new AbortController())
    const after = first ? undefined : (cursor() ?? undefined)
    batch(() => {
      setLoading(first ? 'initial' : 'more')
      setError(undefined)
    })
    try {
      const page = await api.sessions.list.query({ ...filters(), limit: pageSize, ...(after ? { cursor: after } : {}) }, { signal: mine.signal })
      if (mine.signal.aborted) return
      batch(() => {
        setSessions((current) => (first ? page.sessions : [...current, ...page.sessions]))
        setCursor(page.cursor)
        setLoading(false)
      })
    } catch (caught) {
      if (mine.signal.aborted) return
      batch(() => {
        // A failed first page must not leave the previous filter's rows on screen as if they matched.
        if (first) setSessions([])
        setError(caught)
        setLoading(false)
      })
    }
  }

  createEffect(on(() => JSON.stringify(filters()), () => void fetchPage(true)))
  onCleanup(() => controller?.abort())

  return {
    sessions,
    loading,
    error,
    hasMore: () => cursor() !== null,
    loadMore: () => {
      if (cursor() !== null && loading() === false) void fetchPage(false)
    },
    retry: () => void fetchPage(sessions().length === 0),
    refresh: () => void fetchPage(true),
  }
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

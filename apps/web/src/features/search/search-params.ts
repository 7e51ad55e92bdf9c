import { hasPositiveTerm, parseQuery, QUERY_LIMITS } from '@loupe/domain'
import { createMemo } from 'solid-js'
import { isStorage, isValidId } from '../../lib/links'
import { KINDS, PERIODS, isPeriod } from './search-filters'
import type { SearchInput, SearchKind } from './search.data'

export type SearchParams = { q?: string; kinds?: string; tool?: string; project?: string; session?: string; storage?: string; when?: string; view?: string }

const SCOPES = ['session', 'project'] as const
/** A scope in the URL that cannot be one: `session=../../etc`. */
export type MalformedScope = { key: (typeof SCOPES)[number]; value: string }

/**
 * What a search page's URL asks for, read once: the query as searched, its parse, the session it
 * is scoped to, the kinds and layout, and the request (`input`; null when the query selects
 * nothing, so no request goes out). Unknown values in the URL are ignored, never sent, except a
 * scope: a session or project that is no id at all (`malformedScope`) searches nothing, since
 * dropping it would search all history in its place.
 */
export function createSearchQuery(params: SearchParams, now: () => number = Date.now) {
  const query = () => (params.q ?? '').trim()
  const parsed = createMemo(() => parseQuery(query()))
  const sessionScope = createMemo(() => (isValidId(params.session) ? { sessionID: params.session, ...(isStorage(params.storage) ? { storage: params.storage } : {}) } : null))
  const malformedScope = createMemo<MalformedScope | null>(() => {
    const key = SCOPES.find((k) => !!params[k] && !isValidId(params[k]))
    return key ? { key, value: params[key] ?? '' } : null
  })
  const kinds = createMemo(() => (params.kinds ?? '').split(',').filter((k): k is SearchKind => (KINDS as string[]).includes(k)))
  const view = (): 'sessions' | 'flat' => (params.view === 'flat' ? 'flat' : 'sessions')
  const input = createMemo<SearchInput | null>(() => {
    const q = query()
    // Nothing but exclusions or punctuation selects nothing: the hint says why.
    if (!q || !hasPositiveTerm(parsed()) || malformedScope()) return null
    const period = isPeriod(params.when) ? params.when : undefined
    return {
      query: q.slice(0, QUERY_LIMITS.sentChars),
      ...(kinds().length ? { kinds: kinds() } : {}),
      ...(params.tool ? { tool: params.tool } : {}),
      ...(isValidId(params.project) ? { projectID: params.project } : {}),
      ...sessionScope(),
      // Rounded to the minute so the same link asks the same question while it is open.
      ...(period ? { since: Math.floor((now() - PERIODS[period][1]) / 60_000) * 60_000 } : {}),
    }
  })
  return { query, parsed, sessionScope, malformedScope, kinds, view, input }
}

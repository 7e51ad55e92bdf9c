import { bindScope, decodeCursor, encodeCursor, parseSessionSort } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import { resolveSession } from '../../store/resolve-session.js'
import { parseStorage } from '../../store/session-ids.schema.js'
import type { SessionRecord, SessionSortPosition, SessionStats } from '../../store/store.js'
import type { GetSessionInput, ListProjectsInput, ListSessionsInput } from './sessions.schema.js'

/** The sessions feature reads the opened OpenCode file only. */
export type SessionsDeps = Pick<AppDeps, 'opencode'>

export type SessionSummary = SessionRecord & { stats: SessionStats }

type ListCursor = { v: number; id: string; s: string }
const isListCursor = (p: unknown): p is ListCursor => {
  const c = p as ListCursor
  return typeof c === 'object' && c !== null && Number.isFinite(c.v) && typeof c.id === 'string' && parseStorage(c.s) !== undefined
}

function ensureReadable(deps: SessionsDeps) {
  const { layout } = deps.opencode
  if (!layout.readable) throw new AppError('unsupported_storage', `Loupe does not recognize this database: ${layout.problems.join('; ')}`)
}

function decodeListCursor(cursor: string, binding: string): SessionSortPosition {
  const decoded = decodeCursor(cursor, 'sessions', binding, isListCursor)
  const storage = decoded.ok ? parseStorage(decoded.value.s) : undefined
  if (!decoded.ok || !storage) throw new AppError('invalid_cursor', 'This page link belongs to another search or sort; start from the first page.')
  return { value: decoded.value.v, id: decoded.value.id, storage }
}

/**
 * Sessions of both generations in the asked order (newest activity first by default), paged by an
 * opaque keyset cursor bound to the filters and the sort, with exact totals of the whole filtered list.
 */
export function listSessions(deps: SessionsDeps, input: ListSessionsInput) {
  ensureReadable(deps)
  const { db, stores } = deps.opencode
  const limit = input.limit ?? 50
  const { sort, order } = parseSessionSort(input.sort, input.order)
  const scope = { search: input.search ?? '', projectID: input.projectID ?? null, archived: !!input.includeArchived, roots: !!input.rootsOnly }
  const binding = bindScope({ kind: 'sessions', ...scope, sort, order })
  const after = input.cursor ? decodeListCursor(input.cursor, binding) : undefined
  const filters = { search: input.search?.trim() || undefined, projectID: input.projectID, includeArchived: scope.archived, rootsOnly: scope.roots }
  return db.read(() => {
    const found = stores.pageSessions(db, { ...filters, sort, order, after, limit: limit + 1 })
    const page = found.slice(0, limit)
    const last = page.at(-1)
    return {
      sessions: page.map((row): SessionSummary => ({ ...row.record, stats: row.stats })),
      cursor: found.length > limit && last ? encodeCursor('sessions', binding, { v: last.sortValue, id: last.record.id, s: last.record.storage }) : null,
      totals: stores.sumSessions(db, filters),
    }
  })
}

function withStats(deps: SessionsDeps, sessions: SessionRecord[]): SessionSummary[] {
  const stats = deps.opencode.stores.sessionStats(deps.opencode.db, sessions)
  return sessions.map((s, i) => ({ ...s, stats: stats[i]! }))
}

/** One session with its stats and direct children (subagent sessions). */
export function getSession(deps: SessionsDeps, input: GetSessionInput) {
  const { session } = resolveSession(deps.opencode, input.sessionID, input.storage)
  const { db, stores } = deps.opencode
  return db.read(() => {
    const [summary] = withStats(deps, [session])
    const children = stores.listSessions(db, { parentID: session.id, includeArchived: true, rootsOnly: false, limit: 500 })
    const parent = session.parentID ? stores.findSession(db, session.parentID) ?? null : null
    return { session: summary!, children, parent }
  })
}

/**
 * Projects with their session counts (both generations), for the project filter: the sessions the
 * list shows with the same toggles (the defaults are the list's too: every session but archived ones).
 */
export function listProjects(deps: SessionsDeps, input: ListProjectsInput) {
  ensureReadable(deps)
  const { db, stores } = deps.opencode
  const filters = { includeArchived: !!input?.includeArchived, rootsOnly: !!input?.rootsOnly }
  return db.read(() => {
    const counts = stores.countByProject(db, filters)
    const known = new Map(stores.projects(db).map((r) => [r.id, r]))
    return [...counts].map(([id, sessions]) => {
      const row = known.get(id)
      const worktree = row?.worktree ?? null
      const name = row?.name || (id === 'global' ? 'Global (no git repository)' : worktree?.split('/').filter(Boolean).at(-1) ?? id)
      return { id, name, worktree, sessions }
    }).sort((a, b) => b.sessions - a.sessions || a.name.localeCompare(b.name))
  })
}

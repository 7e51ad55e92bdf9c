import { bindScope, decodeCursor, encodeCursor, type StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import type { SessionRecord, SessionStats } from '../../store/store.js'
import { resolveSession } from './resolve-session.js'
import type { GetSessionInput, ListSessionsInput } from './sessions.schema.js'

export type SessionSummary = SessionRecord & { stats: SessionStats }

type ListCursor = { t: number; id: string; s: StorageGeneration }
const isListCursor = (p: unknown): p is ListCursor => {
  const c = p as ListCursor
  return typeof c === 'object' && c !== null && Number.isFinite(c.t) && typeof c.id === 'string' && (c.s === 'v1' || c.s === 'v2')
}
// Within equal (timeUpdated, id), the 2.x copy sorts first.
const RANK: Record<StorageGeneration, number> = { v1: 0, v2: 1 }
const newestFirst = (a: SessionRecord, b: SessionRecord) =>
  b.timeUpdated - a.timeUpdated || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) || RANK[b.storage] - RANK[a.storage]

function ensureReadable(deps: AppDeps) {
  const { layout } = deps.opencode
  if (!layout.readable) throw new AppError('unsupported_storage', `Loupe does not recognize this database: ${layout.problems.join('; ')}`)
}

/** Sessions of both generations, newest activity first, paged by an opaque keyset cursor. */
export function listSessions(deps: AppDeps, input: ListSessionsInput) {
  ensureReadable(deps)
  const { db, stores } = deps.opencode
  const limit = input.limit ?? 50
  const scope = { search: input.search ?? '', projectID: input.projectID ?? null, archived: !!input.includeArchived, roots: !!input.rootsOnly }
  const binding = bindScope({ kind: 'sessions', ...scope })
  let after: ListCursor | undefined
  if (input.cursor) {
    const decoded = decodeCursor(input.cursor, 'sessions', binding, isListCursor)
    if (!decoded.ok) throw new AppError('invalid_cursor', 'This page link belongs to another search; start from the first page.')
    after = decoded.value
  }
  return db.read(() => {
    const found: SessionRecord[] = []
    for (const store of stores.all) {
      const before = after && { timeUpdated: after.t, id: after.id, inclusive: RANK[store.generation] < RANK[after.s] }
      found.push(...store.listSessions(db, {
        search: input.search?.trim() || undefined,
        projectID: input.projectID,
        includeArchived: scope.archived,
        rootsOnly: scope.roots,
        before,
        limit: limit + 1,
      }))
    }
    found.sort(newestFirst)
    const page = found.slice(0, limit)
    const last = page.at(-1)
    return {
      sessions: withStats(deps, page),
      cursor: found.length > limit && last ? encodeCursor('sessions', binding, { t: last.timeUpdated, id: last.id, s: last.storage }) : null,
    }
  })
}

function withStats(deps: AppDeps, sessions: SessionRecord[]): SessionSummary[] {
  const { db, stores } = deps.opencode
  const stats = new Map<string, SessionStats>()
  for (const store of stores.all) {
    const ids = sessions.filter((s) => s.storage === store.generation).map((s) => s.id)
    if (ids.length === 0) continue
    for (const [id, value] of store.sessionStats(db, ids)) stats.set(`${store.generation}:${id}`, value)
  }
  const empty: SessionStats = { messages: 0, parts: 0, bytes: { messages: 0, parts: 0, events: 0 } }
  return sessions.map((s) => ({ ...s, stats: stats.get(`${s.storage}:${s.id}`) ?? empty }))
}

/** One session with its stats and direct children (subagent sessions). */
export function getSession(deps: AppDeps, input: GetSessionInput) {
  const { session } = resolveSession(deps.opencode, input.sessionID, input.storage)
  const { db, stores } = deps.opencode
  return db.read(() => {
    const [summary] = withStats(deps, [session])
    const children: SessionRecord[] = []
    for (const store of stores.all) {
      children.push(...store.listSessions(db, { parentID: session.id, includeArchived: true, rootsOnly: false, limit: 500 }))
    }
    const parent = session.parentID ? stores.all.map((s) => s.getSession(db, session.parentID!)).find(Boolean) ?? null : null
    return { session: summary!, children: children.sort(newestFirst), parent }
  })
}

/** Projects with their session counts (both generations), for the project filter. */
export function listProjects(deps: AppDeps) {
  ensureReadable(deps)
  const { db, stores } = deps.opencode
  return db.read(() => {
    const counts = new Map<string, number>()
    for (const store of stores.all) {
      for (const [id, n] of store.countByProject(db, false)) counts.set(id, (counts.get(id) ?? 0) + n)
    }
    const rows = deps.opencode.layout.tables.includes('project')
      ? db.allSql<{ id: string; worktree: string; name: string | null }>(`SELECT id, worktree, name FROM project`)
      : []
    const known = new Map(rows.map((r) => [r.id, r]))
    return [...counts].map(([id, sessions]) => {
      const row = known.get(id)
      const worktree = row?.worktree ?? null
      const name = row?.name || (id === 'global' ? 'Global (no git repository)' : worktree?.split('/').filter(Boolean).at(-1) ?? id)
      return { id, name, worktree, sessions }
    }).sort((a, b) => b.sessions - a.sessions || a.name.localeCompare(b.name))
  })
}

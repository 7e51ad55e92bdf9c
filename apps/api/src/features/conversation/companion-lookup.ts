import { COMPANION_METADATA_KEY, IMAGES_COMPANION, LIMITS, type StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import type { SessionRecord } from '../../store/store.js'
import { resolveSession } from '../../store/resolve-session.js'
import { companionTables, findLocation, newestRoots, type KnownLocation, type RootKey, type SessionTableName } from './companion.store.js'

export interface CompanionSession {
  id: string
  /** The row carries `"codenomad.companion": "images"`. */
  marked: boolean
  storage: StorageGeneration
  title: string
  directory: string
  projectID: string
  agent: string | null
  timeCreated: number
  timeUpdated: number
}

export type Unknown = { status: 'unknown'; reason: string }
export type Lookup = { kind: 'found'; id: string } | { kind: 'absent' } | { kind: 'unknown'; reason: string }
export type Located = { ok: true; location: KnownLocation; tables: SessionTableName[]; first: Lookup } | { ok: false; answer: Unknown }

export const unknown = (reason: string): Unknown => ({ status: 'unknown', reason })
const readFailure = (error: unknown) => unknown(`Loupe could not read the OpenCode database: ${(error as Error).message}`)

/** The storage challenge: the file Loupe opened is still there and readable. */
export function checkStorage(deps: AppDeps): Unknown | null {
  const { layout } = deps.opencode
  if (!layout.readable) return unknown(`Loupe does not recognize this database: ${layout.problems.join('; ')}`)
  if (!deps.opencode.isSameFile()) return unknown(`${deps.opencode.path} was replaced since Loupe opened it; restart Loupe.`)
  return null
}

interface Scan {
  /** Roots of both tables, newest first, one per id. */
  rows: RootKey[]
  /** Some table holds more roots than were read. */
  truncated: boolean
}

/** The newest 20,000 (+1) root, unarchived sessions of `directory` in each table, merged. Throws on a read failure. */
function scanRoots(deps: AppDeps, tables: readonly SessionTableName[], directory: string): Scan {
  const cap = LIMITS.imagesConversationScanRoots
  let truncated = false
  const rows = tables.flatMap((table) => {
    const found = newestRoots(deps.opencode.db, table, directory, cap + 1)
    if (found.length > cap) truncated = true
    return found
  })
  // An upgraded file can hold one session in both tables: one root, and the session_v2 copy wins.
  const byId = new Map<string, RootKey>()
  for (const row of rows) if (!byId.has(row.id) || row.table === 'session_v2') byId.set(row.id, row)
  const ordered = [...byId.values()].sort((a, b) => b.timeCreated - a.timeCreated || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
  return { rows: ordered, truncated }
}

/**
 * The newest root marked `images`, by (time_created, id), over at most 20,000 roots: `absent`
 * only after a complete scan.
 */
function decide(scan: Scan): Lookup {
  const cap = LIMITS.imagesConversationScanRoots
  const marked = scan.rows.slice(0, cap).find((row) => row.marked)
  if (marked) return { kind: 'found', id: marked.id }
  if (scan.truncated || scan.rows.length > cap) {
    return { kind: 'unknown', reason: `This location has more than ${cap.toLocaleString('en')} conversations; Loupe looked at the newest ${cap.toLocaleString('en')} and found no Images conversation among them.` }
  }
  return { kind: 'absent' }
}

export function lookup(deps: AppDeps, tables: readonly SessionTableName[], directory: string): Lookup {
  try {
    return decide(deps.opencode.db.read(() => scanRoots(deps, tables, directory)))
  } catch (error) {
    return { kind: 'unknown', reason: readFailure(error).reason }
  }
}

/**
 * The location `directory` names in the opened database, with a first lookup from the same scan.
 * A directory the database does not know is refused before git or OpenCode is touched.
 */
export function locate(deps: AppDeps, directory: string): Located {
  const problem = checkStorage(deps)
  if (problem) return { ok: false, answer: problem }
  const { tables, problems } = companionTables(deps.opencode.layout)
  if (problems.length || tables.length === 0) return { ok: false, answer: unknown(`Loupe cannot search this database: ${problems.join('; ') || 'no session tables'}`) }
  const { db, layout } = deps.opencode
  let found: { location: KnownLocation | undefined; scan: Scan }
  try {
    found = db.read(() => {
      const scan = scanRoots(deps, tables, directory)
      const newest = scan.rows[0]
      const location = newest ? { directory, projectID: newest.projectID, sessionID: newest.id } : findLocation(db, layout, tables, directory)
      return { location, scan }
    })
  } catch (error) {
    return { ok: false, answer: readFailure(error) }
  }
  if (!found.location) throw new AppError('not_found', `Loupe knows no OpenCode project or session in ${directory}.`)
  return { ok: true, location: found.location, tables, first: decide(found.scan) }
}

function toCompanion(session: SessionRecord): CompanionSession {
  const { id, storage, title, directory, projectID, agent, timeCreated, timeUpdated } = session
  const marked = session.metadata?.[COMPANION_METADATA_KEY] === IMAGES_COMPANION
  return { id, marked, storage, title, directory, projectID, agent, timeCreated, timeUpdated }
}

export function readSession(deps: AppDeps, id: string): CompanionSession | Unknown {
  const problem = checkStorage(deps)
  if (problem) return problem
  try {
    return toCompanion(resolveSession(deps.opencode, id).session)
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return unknown(`Session ${id} is no longer in the database.`)
    return readFailure(error)
  }
}


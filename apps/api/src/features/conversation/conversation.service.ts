import { COMPANION_METADATA_KEY, IMAGES_COMPANION, LIMITS, type StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import type { SessionRecord } from '../../store/store.js'
import { resolveSession } from '../sessions/resolve-session.js'
import { companionTables, findLocation, newestRoots, type KnownLocation, type RootKey, type SessionTableName } from './companion.store.js'
import type { ImagesConversationInput, LocationInput } from './conversation.schema.js'
import { excludeDesignDir, type GitExclusion } from './git-exclude.service.js'
import { NO_SERVER, createCompanionSession, readCatalog, serverHasSession, type Catalog, type ServerProblem } from './opencode-client.js'

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
export type Blocked = { status: 'blocked'; blocked: 'unavailable'; reason: string; hint: string }
export type ImagesConversationAnswer =
  | { status: 'found' | 'created'; session: CompanionSession; command: string; gitExclusion: GitExclusion }
  | Unknown
  | Blocked
export type FindAnswer = { status: 'found'; session: CompanionSession } | { status: 'absent' } | Unknown

type Lookup = { kind: 'found'; id: string } | { kind: 'absent' } | { kind: 'unknown'; reason: string }
type Created = { kind: 'created'; id: string }
type Located = { ok: true; location: KnownLocation; tables: SessionTableName[]; first: Lookup } | { ok: false; answer: Unknown }

const blocked = (problem: ServerProblem): Blocked => ({ status: 'blocked', blocked: 'unavailable', ...problem })
const unknown = (reason: string): Unknown => ({ status: 'unknown', reason })
const readFailure = (error: unknown) => unknown(`Loupe could not read the OpenCode database: ${(error as Error).message}`)

/** The storage challenge: the file Loupe opened is still there and readable. */
function checkStorage(deps: AppDeps): Unknown | null {
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

function lookup(deps: AppDeps, tables: readonly SessionTableName[], directory: string): Lookup {
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
function locate(deps: AppDeps, directory: string): Located {
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

function readSession(deps: AppDeps, id: string): CompanionSession | Unknown {
  const problem = checkStorage(deps)
  if (problem) return problem
  try {
    return toCompanion(resolveSession(deps.opencode, id).session)
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return unknown(`Session ${id} is no longer in the database.`)
    return readFailure(error)
  }
}

/** Find the location's Images conversation without creating anything. */
export function findImagesConversation(deps: AppDeps, input: LocationInput): FindAnswer {
  const located = locate(deps, input.directory)
  if (!located.ok) return located.answer
  const found = located.first
  if (found.kind === 'absent') return { status: 'absent' }
  if (found.kind === 'unknown') return unknown(found.reason)
  const session = readSession(deps, found.id)
  return 'status' in session ? session : { status: 'found', session }
}

/**
 * `open` finds the location's Images conversation, or creates it through OpenCode's API when the
 * lookup (repeated under the process-wide lock) is `absent`; `new` always creates. Afterwards the
 * location's `.codenomad/design/` is excluded in git.
 */
export async function imagesConversation(deps: AppDeps, input: ImagesConversationInput): Promise<ImagesConversationAnswer> {
  const located = locate(deps, input.directory)
  if (!located.ok) return located.answer
  const { location, tables, first } = located
  if (input.mode === 'open') {
    if (first.kind === 'found') return finish(deps, first.id, 'found')
    if (first.kind === 'unknown') return unknown(first.reason)
  }
  const key = JSON.stringify([deps.opencode.path, location.projectID, location.directory])
  const outcome = await deps.conversation.locks.run(key, async (): Promise<Lookup | Created | Blocked> => {
    if (input.mode === 'open') {
      const again = lookup(deps, tables, location.directory)
      if (again.kind !== 'absent') return again
    } else {
      const problem = checkStorage(deps)
      if (problem) return { kind: 'unknown', reason: problem.reason }
    }
    return create(deps, location, input)
  })
  if ('status' in outcome) return outcome
  if (outcome.kind === 'unknown') return unknown(outcome.reason)
  if (outcome.kind === 'absent') return unknown('The lookup changed its answer; try again.')
  return finish(deps, outcome.id, outcome.kind)
}

async function finish(deps: AppDeps, id: string, status: 'found' | 'created'): Promise<ImagesConversationAnswer> {
  const session = readSession(deps, id)
  if ('status' in session) {
    return status === 'created'
      ? blocked({
          reason: `OpenCode created session ${id}, but it is not in the database Loupe opened (${deps.opencode.path}).`,
          hint: 'Point --opencode-url at the OpenCode server that uses this database, or open Loupe on that server\'s database.',
        })
      : session
  }
  if (status === 'created' && !session.marked) {
    return blocked({ reason: `OpenCode stored session ${id} without the Images marker.`, hint: 'Check that --opencode-url points at OpenCode 1.x `opencode serve`.' })
  }
  const gitExclusion = await excludeDesignDir(session.directory, deps.conversation.git, deps.conversation.locks)
  return { status, session, command: `opencode -s ${session.id}`, gitExclusion }
}

async function create(deps: AppDeps, location: KnownLocation, input: ImagesConversationInput): Promise<Created | Blocked> {
  const server = deps.conversation.server
  if (!server) return blocked(NO_SERVER)
  if (location.sessionID) {
    const same = await serverHasSession(server, location.directory, location.sessionID)
    if (!same.ok) return blocked(same.error)
    if (!same.value) {
      return blocked({
        reason: `The OpenCode server at ${server.url} does not know session ${location.sessionID} of this location: it uses another database than ${deps.opencode.path}.`,
        hint: 'Point --opencode-url at the OpenCode server that uses this database.',
      })
    }
  }
  if (input.agent || input.model) {
    const catalog = await readCatalog(server, location.directory)
    if (!catalog.ok) return blocked(catalog.error)
    checkChoices(catalog.value, input)
  }
  const created = await createCompanionSession(server, location.directory, { title: input.title, agent: input.agent, model: input.model })
  if (!created.ok) return blocked(created.error)
  return { kind: 'created', id: created.value.id }
}

function checkChoices(catalog: Catalog, input: ImagesConversationInput) {
  if (input.agent && !catalog.agents.some((a) => a.name === input.agent)) {
    throw new AppError('invalid_input', `OpenCode offers no agent "${input.agent}" here; choose one of: ${catalog.agents.map((a) => a.name).join(', ') || 'none'}.`)
  }
  const model = input.model
  if (model && !catalog.models.some((m) => m.providerID === model.providerID && m.id === model.id)) {
    throw new AppError('invalid_input', `OpenCode offers no model ${model.providerID}/${model.id} here.`)
  }
}

/** The agents and models OpenCode offers at a location, for the person to choose from when creating. */
export async function conversationCatalog(deps: AppDeps, input: LocationInput): Promise<{ status: 'ok'; catalog: Catalog } | Unknown | Blocked> {
  const located = locate(deps, input.directory)
  if (!located.ok) return located.answer
  const server = deps.conversation.server
  if (!server) return blocked(NO_SERVER)
  const catalog = await readCatalog(server, located.location.directory)
  return catalog.ok ? { status: 'ok', catalog: catalog.value } : blocked(catalog.error)
}

import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import { checkStorage, locate, lookup, readSession, unknown, type CompanionSession, type Lookup, type Unknown } from './companion-lookup.js'
import type { KnownLocation } from './companion.store.js'
import type { ImagesConversationInput, LocationInput } from './conversation.schema.js'
import { excludeDesignDir, type GitExclusion } from './git-exclude.service.js'
import { NO_SERVER, createCompanionSession, explicitServer, readCatalog, serverHasSession, type Catalog, type ServerProblem } from '../../opencode/opencode-sessions.js'

export type { CompanionSession, Unknown }
export type Blocked = { status: 'blocked'; blocked: 'unavailable'; reason: string; hint: string }
export type ImagesConversationAnswer =
  | { status: 'found' | 'created'; session: CompanionSession; command: string; gitExclusion: GitExclusion }
  | Unknown
  | Blocked
export type FindAnswer = { status: 'found'; session: CompanionSession } | { status: 'absent' } | Unknown

type Created = { kind: 'created'; id: string }

const blocked = (problem: ServerProblem): Blocked => ({ status: 'blocked', blocked: 'unavailable', ...problem })

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
  const server = explicitServer(deps.opencodeClient)
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
  const server = explicitServer(deps.opencodeClient)
  if (!server) return blocked(NO_SERVER)
  const catalog = await readCatalog(server, located.location.directory)
  return catalog.ok ? { status: 'ok', catalog: catalog.value } : blocked(catalog.error)
}

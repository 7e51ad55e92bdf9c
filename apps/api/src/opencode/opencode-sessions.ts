import { COMPANION_METADATA_KEY, IMAGES_COMPANION, err, ok, type Result } from '@loupe/domain'
import { z } from 'zod'
import { CREDENTIALS_FIX, type OpenCodeClient, type OpenCodeFailure } from './opencode-client.js'

/** A server to call: the one client (credentials, timeouts) and where. */
export interface OpenCodeServer {
  client: OpenCodeClient
  url: string
}

/** Why OpenCode's API could not be used, and what the person can do about it. */
export interface ServerProblem {
  reason: string
  hint: string
}

const START_HINT = 'Start OpenCode\'s server (for example `opencode serve --port 4096`) and start Loupe with `--opencode-url http://127.0.0.1:4096`.'

export const NO_SERVER: ServerProblem = {
  reason: 'No OpenCode server is configured, and Loupe creates conversations only through OpenCode itself.',
  hint: START_HINT,
}

/** The explicit `--opencode-url` server, or null when none was given. */
export const explicitServer = (client: OpenCodeClient): OpenCodeServer | null => (client.url ? { client, url: client.url } : null)

/** The Session info OpenCode answers (1.18.33 `components.schemas.Session`), as far as Loupe relies on it. */
const sessionInfo = z.looseObject({
  id: z.string().regex(/^ses_[A-Za-z0-9]{1,250}$/),
  projectID: z.string().min(1),
  directory: z.string().min(1),
  title: z.string(),
  parentID: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  time: z.looseObject({ created: z.number(), updated: z.number() }),
})
export type OpenCodeSessionInfo = z.infer<typeof sessionInfo>

const agentList = z.array(z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  mode: z.enum(['subagent', 'primary', 'all']),
  hidden: z.boolean().optional(),
}))
const providerList = z.looseObject({
  providers: z.array(z.looseObject({
    id: z.string().min(1),
    name: z.string(),
    models: z.record(z.string(), z.looseObject({ id: z.string().min(1), name: z.string() })),
  })),
  default: z.record(z.string(), z.string()).optional(),
})

export interface Catalog {
  /** Agents a person can start a conversation with (primary or all, not hidden). */
  agents: { name: string; description: string | null }[]
  models: { providerID: string; providerName: string; id: string; name: string }[]
}

export interface CreateSessionBody {
  title?: string | undefined
  agent?: string | undefined
  model?: { providerID: string; id: string; variant?: string | undefined } | undefined
}

type Answer = Result<unknown, ServerProblem | { notFound: true }>

async function call(server: OpenCodeServer, method: 'GET' | 'POST', path: string, directory: string, body?: unknown): Promise<Answer> {
  const answer = await server.client.request(server.url, { method, path, directory, body, purpose: 'work' })
  switch (answer.kind) {
    case 'ok':
      return ok(answer.value)
    case 'not_found':
      return err({ notFound: true })
    default:
      return err(describeFailure(server.url, answer))
  }
}

/** A failed call in words: what happened at `url`, and what to do. */
export function describeFailure(url: string, answer: OpenCodeFailure): ServerProblem {
  switch (answer.kind) {
    case 'unauthorized':
      return { reason: `OpenCode at ${url} refused Loupe's credentials (HTTP ${answer.status}).`, hint: CREDENTIALS_FIX }
    case 'not_found':
      return { reason: `OpenCode at ${url} does not know this request (HTTP 404).`, hint: malformed(url, '').hint }
    case 'bad_answer':
      return answer.message.startsWith('HTTP ')
        ? { reason: `OpenCode at ${url} refused the request (${answer.message}).`, hint: 'See the OpenCode server log.' }
        : malformed(url, answer.message)
    case 'unreachable':
      if (answer.cause === 'timeout') return { reason: `OpenCode at ${url} ${answer.message}.`, hint: 'Check that the server is not stuck starting up, then try again.' }
      return {
        reason: answer.cause === 'refused' ? `No OpenCode server answered at ${url}.` : `Loupe could not reach OpenCode at ${url}: ${answer.message}`,
        hint: `Start OpenCode's server there (\`opencode serve --port ${new URL(url).port || '80'}\`, on the same database Loupe opened), or restart Loupe with the \`--opencode-url\` of the one that runs.`,
      }
  }
}

const malformed = (url: string, what: string): ServerProblem => ({
  reason: `OpenCode at ${url} sent ${what}.`,
  hint: 'Check that --opencode-url points at `opencode serve` (OpenCode 1.x), not at another program.',
})

const problemOf = (answer: { ok: false; error: ServerProblem | { notFound: true } }, server: OpenCodeServer, what: string): ServerProblem =>
  'notFound' in answer.error ? { reason: `OpenCode at ${server.url} has no ${what} (HTTP 404).`, hint: malformed(server.url, '').hint } : answer.error

/**
 * `POST /session?directory=…` with the title, the Images marker and, when given, agent and model
 * (all accepted by 1.18.33's `session.create`). Only a well-formed Session carrying the marker,
 * in that directory and without a parent, counts.
 */
export async function createCompanionSession(server: OpenCodeServer, directory: string, body: CreateSessionBody): Promise<Result<OpenCodeSessionInfo, ServerProblem>> {
  const payload = { ...body, metadata: { [COMPANION_METADATA_KEY]: IMAGES_COMPANION } }
  const answer = await call(server, 'POST', '/session', directory, payload)
  if (!answer.ok) return err(problemOf(answer, server, 'session API'))
  const parsed = sessionInfo.safeParse(answer.value)
  if (!parsed.success) return err(malformed(server.url, 'an answer that is not a session'))
  const session = parsed.data
  if (session.metadata?.[COMPANION_METADATA_KEY] !== IMAGES_COMPANION || session.parentID !== undefined) {
    return err(malformed(server.url, `session ${session.id} without the Images marker`))
  }
  if (session.directory !== directory) {
    return err({ reason: `OpenCode created session ${session.id} in ${session.directory}, not in ${directory}.`, hint: 'Open that directory in OpenCode once, then try again.' })
  }
  return ok(session)
}

/** Whether the server knows session `id`: it reads the same database Loupe opened. */
export async function serverHasSession(server: OpenCodeServer, directory: string, id: string): Promise<Result<boolean, ServerProblem>> {
  const answer = await call(server, 'GET', `/session/${encodeURIComponent(id)}`, directory)
  if (!answer.ok) return 'notFound' in answer.error ? ok(false) : err(answer.error)
  const parsed = sessionInfo.safeParse(answer.value)
  if (!parsed.success) return err(malformed(server.url, 'an answer that is not a session'))
  return ok(parsed.data.id === id)
}

/** The agents and models OpenCode offers for `directory` (GET /agent, GET /config/providers). */
export async function readCatalog(server: OpenCodeServer, directory: string): Promise<Result<Catalog, ServerProblem>> {
  const [agents, providers] = await Promise.all([call(server, 'GET', '/agent', directory), call(server, 'GET', '/config/providers', directory)])
  if (!agents.ok) return err(problemOf(agents, server, 'agent list'))
  if (!providers.ok) return err(problemOf(providers, server, 'provider list'))
  const a = agentList.safeParse(agents.value)
  const p = providerList.safeParse(providers.value)
  if (!a.success || !p.success) return err(malformed(server.url, 'an agent or provider list Loupe cannot read'))
  return ok({
    agents: a.data.filter((x) => x.mode !== 'subagent' && !x.hidden).map((x) => ({ name: x.name, description: x.description ?? null })),
    models: p.data.providers.flatMap((provider) =>
      Object.values(provider.models).map((m) => ({ providerID: provider.id, providerName: provider.name, id: m.id, name: m.name }))),
  })
}

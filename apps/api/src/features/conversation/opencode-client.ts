import { COMPANION_METADATA_KEY, IMAGES_COMPANION, err, ok, type Result } from '@loupe/domain'
import { z } from 'zod'

/** A configured `opencode serve` (`--opencode-url`), with HTTP Basic credentials when it has a password. */
export interface OpenCodeServer {
  url: string
  /** `Basic …` for OPENCODE_SERVER_USERNAME (default `opencode`) and OPENCODE_SERVER_PASSWORD, or null. */
  authorization: string | null
  timeoutMs: number
}

/** Why OpenCode's API could not be used, and what the person can do about it. */
export interface ServerProblem {
  reason: string
  hint: string
}

const START_HINT = 'Start OpenCode\'s server (for example `opencode serve --port 4096`) and start Loupe with `--opencode-url http://127.0.0.1:4096`.'
const AUTH_HINT = 'Start Loupe with OPENCODE_SERVER_PASSWORD (and OPENCODE_SERVER_USERNAME, when it is not `opencode`) set as for `opencode serve`.'
const MAX_ANSWER_BYTES = 4 * 1024 * 1024

export const NO_SERVER: ServerProblem = {
  reason: 'No OpenCode server is configured, and Loupe creates conversations only through OpenCode itself.',
  hint: START_HINT,
}

export function createOpenCodeServer(options: { url: string | null; username: string | null; password: string | null; timeoutMs?: number }): OpenCodeServer | null {
  if (!options.url) return null
  const authorization = options.password
    ? `Basic ${Buffer.from(`${options.username || 'opencode'}:${options.password}`, 'utf8').toString('base64')}`
    : null
  return { url: options.url.replace(/\/+$/, ''), authorization, timeoutMs: options.timeoutMs ?? 20_000 }
}

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
  const url = new URL(server.url + path)
  url.searchParams.set('directory', directory)
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (server.authorization) headers.authorization = server.authorization
  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(server.timeoutMs),
    })
  } catch (error) {
    return err(unreachable(server, error))
  }
  let text: string | null
  try {
    text = await readCapped(response)
  } catch (error) {
    return err(unreachable(server, error))
  }
  if (response.status === 401 || response.status === 403) {
    return err({ reason: `OpenCode at ${server.url} refused Loupe's credentials (HTTP ${response.status}).`, hint: AUTH_HINT })
  }
  if (response.status === 404) return err({ notFound: true })
  if (!response.ok) {
    return err({ reason: `OpenCode at ${server.url} refused the request (HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}).`, hint: 'See the OpenCode server log.' })
  }
  if (text === null) return err(malformed(server, 'an answer over 4 MiB'))
  try {
    return ok(JSON.parse(text))
  } catch {
    return err(malformed(server, 'an answer that is not JSON'))
  }
}

function unreachable(server: OpenCodeServer, error: unknown): ServerProblem {
  if ((error as Error).name === 'TimeoutError') {
    return { reason: `OpenCode at ${server.url} did not answer within ${Math.round(server.timeoutMs / 1000)} s.`, hint: 'Check that the server is not stuck starting up, then try again.' }
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (cause?.message?.includes('redirect')) return malformed(server, 'a redirect')
  const code = cause?.code
  const refused = code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH'
  return {
    reason: refused ? `No OpenCode server answered at ${server.url}.` : `Loupe could not reach OpenCode at ${server.url}: ${cause?.message ?? (error as Error).message}`,
    hint: `Start OpenCode's server there (\`opencode serve --port ${new URL(server.url).port || '80'}\`, on the same database Loupe opened), or restart Loupe with the \`--opencode-url\` of the one that runs.`,
  }
}

const malformed = (server: OpenCodeServer, what: string): ServerProblem => ({
  reason: `OpenCode at ${server.url} sent ${what}.`,
  hint: 'Check that --opencode-url points at `opencode serve` (OpenCode 1.x), not at another program.',
})

async function readCapped(response: Response): Promise<string | null> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {})
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const problemOf = (answer: { ok: false; error: ServerProblem | { notFound: true } }, server: OpenCodeServer, what: string): ServerProblem =>
  'notFound' in answer.error ? { reason: `OpenCode at ${server.url} has no ${what} (HTTP 404).`, hint: malformed(server, '').hint } : answer.error

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
  if (!parsed.success) return err(malformed(server, 'an answer that is not a session'))
  const session = parsed.data
  if (session.metadata?.[COMPANION_METADATA_KEY] !== IMAGES_COMPANION || session.parentID !== undefined) {
    return err(malformed(server, `session ${session.id} without the Images marker`))
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
  if (!parsed.success) return err(malformed(server, 'an answer that is not a session'))
  return ok(parsed.data.id === id)
}

/** The agents and models OpenCode offers for `directory` (GET /agent, GET /config/providers). */
export async function readCatalog(server: OpenCodeServer, directory: string): Promise<Result<Catalog, ServerProblem>> {
  const [agents, providers] = await Promise.all([call(server, 'GET', '/agent', directory), call(server, 'GET', '/config/providers', directory)])
  if (!agents.ok) return err(problemOf(agents, server, 'agent list'))
  if (!providers.ok) return err(problemOf(providers, server, 'provider list'))
  const a = agentList.safeParse(agents.value)
  const p = providerList.safeParse(providers.value)
  if (!a.success || !p.success) return err(malformed(server, 'an agent or provider list Loupe cannot read'))
  return ok({
    agents: a.data.filter((x) => x.mode !== 'subagent' && !x.hidden).map((x) => ({ name: x.name, description: x.description ?? null })),
    models: p.data.providers.flatMap((provider) =>
      Object.values(provider.models).map((m) => ({ providerID: provider.id, providerName: provider.name, id: m.id, name: m.name }))),
  })
}

/**
 * The one door to OpenCode's HTTP servers: the explicit `--opencode-url` and any server Loupe finds
 * itself. Every call carries the environment's credentials and one timeout policy, and its answer is
 * a typed outcome the caller must handle; nothing here decides what a failure means.
 */
export interface OpenCodeClient {
  /** `--opencode-url` without a trailing slash, or null. */
  readonly url: string | null
  /** The user name sent (OPENCODE_SERVER_USERNAME, default `opencode`), for messages. */
  readonly username: string
  readonly hasPassword: boolean
  request(base: string, call: OpenCodeCall): Promise<OpenCodeAnswer>
}

export interface OpenCodeCall {
  method: 'GET' | 'POST'
  path: string
  directory?: string
  body?: unknown
  /** `status`: a quick read asked before a write; `work`: a call that may take OpenCode a while. */
  purpose: 'status' | 'work'
}

export type OpenCodeAnswer =
  | { kind: 'ok'; value: unknown }
  | { kind: 'not_found' }
  | { kind: 'unauthorized'; status: number }
  /** `refused`: nothing listens there; `timeout`: something listens and did not answer in time. */
  | { kind: 'unreachable'; cause: 'refused' | 'timeout' | 'network'; message: string }
  | { kind: 'bad_answer'; message: string }

export type OpenCodeFailure = Exclude<OpenCodeAnswer, { kind: 'ok' }>

export interface TimeoutPolicy {
  statusMs: number
  workMs: number
}

// A status read makes OpenCode boot an instance for a directory it has not served yet: seconds, not ms.
export const DEFAULT_TIMEOUTS: TimeoutPolicy = { statusMs: 5_000, workMs: 20_000 }
const MAX_ANSWER_BYTES = 4 * 1024 * 1024

export interface OpenCodeClientOptions {
  url: string | null
  username: string | null
  password: string | null
  timeouts?: Partial<TimeoutPolicy>
}

export function createOpenCodeClient(options: OpenCodeClientOptions): OpenCodeClient {
  const username = options.username || 'opencode'
  const authorization = options.password ? `Basic ${Buffer.from(`${username}:${options.password}`, 'utf8').toString('base64')}` : null
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  return {
    url: options.url ? options.url.replace(/\/+$/, '') : null,
    username,
    hasPassword: authorization !== null,
    request: (base, call) => send(base, call, authorization, call.purpose === 'status' ? timeouts.statusMs : timeouts.workMs),
  }
}

async function send(base: string, call: OpenCodeCall, authorization: string | null, timeoutMs: number): Promise<OpenCodeAnswer> {
  const url = new URL(base.replace(/\/+$/, '') + call.path)
  if (call.directory !== undefined) url.searchParams.set('directory', call.directory)
  const headers: Record<string, string> = { accept: 'application/json' }
  if (call.body !== undefined) headers['content-type'] = 'application/json'
  if (authorization) headers.authorization = authorization
  const signal = AbortSignal.timeout(timeoutMs)
  let response: Response
  let text: string | null
  try {
    response = await fetch(url, { method: call.method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body), redirect: 'error', signal })
    text = await readCapped(response)
  } catch (error) {
    return failed(error, timeoutMs)
  }
  if (response.status === 401 || response.status === 403) return { kind: 'unauthorized', status: response.status }
  if (response.status === 404) return { kind: 'not_found' }
  if (!response.ok) return { kind: 'bad_answer', message: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}` }
  if (text === null) return { kind: 'bad_answer', message: 'an answer over 4 MiB' }
  try {
    return { kind: 'ok', value: JSON.parse(text) }
  } catch {
    return { kind: 'bad_answer', message: 'an answer that is not JSON' }
  }
}

function failed(error: unknown, timeoutMs: number): OpenCodeFailure {
  const e = error as Error & { cause?: { code?: string; message?: string } }
  if (e.name === 'TimeoutError') return { kind: 'unreachable', cause: 'timeout', message: `did not answer within ${Math.round(timeoutMs / 1000)} s` }
  if (e.cause?.message?.includes('redirect')) return { kind: 'bad_answer', message: 'a redirect' }
  const code = e.cause?.code
  const refused = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH'
  return { kind: 'unreachable', cause: refused ? 'refused' : 'network', message: e.cause?.message ?? e.message }
}

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

/** What to tell a person about a credentials refusal: the variables to set, as for `opencode serve`. */
export const CREDENTIALS_FIX =
  'Start Loupe with OPENCODE_SERVER_USERNAME and OPENCODE_SERVER_PASSWORD set as for that OpenCode (the user name defaults to `opencode`).'

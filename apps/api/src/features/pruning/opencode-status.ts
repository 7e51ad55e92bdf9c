import type { AppConfig } from '../../deps.js'
import type { SessionRecord } from '../../store/store.js'

/**
 * What a configured OpenCode server says about a session: `busy` (it is generating), `idle`,
 * `unreachable` (no answer, or an answer Loupe does not understand) or `not_configured`.
 * Asked before any write transaction opens; never from inside one.
 */
export type ServerState = 'not_configured' | 'idle' | 'busy' | 'unreachable'

const TIMEOUT_MS = 1500

export async function sessionServerState(config: AppConfig, session: SessionRecord): Promise<ServerState> {
  if (!config.opencodeUrl) return 'not_configured'
  const headers: Record<string, string> = {}
  if (config.opencodePassword) headers.authorization = `Basic ${Buffer.from(`opencode:${config.opencodePassword}`).toString('base64')}`
  try {
    if (session.storage === 'v1') {
      const url = new URL(`${config.opencodeUrl}/session/status`)
      url.searchParams.set('directory', session.directory)
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) })
      if (!res.ok) return 'unreachable'
      const body = (await res.json()) as Record<string, { type?: unknown } | undefined> | null
      if (typeof body !== 'object' || body === null) return 'unreachable'
      const state = body[session.id]?.type
      return state !== undefined && state !== 'idle' ? 'busy' : 'idle'
    }
    const res = await fetch(`${config.opencodeUrl}/api/session/active`, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) })
    if (!res.ok) return 'unreachable'
    const body = (await res.json()) as { data?: Record<string, unknown> } | null
    if (typeof body?.data !== 'object' || body.data === null) return 'unreachable'
    return body.data[session.id] ? 'busy' : 'idle'
  } catch {
    return 'unreachable'
  }
}

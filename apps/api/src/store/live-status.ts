import type { SessionRecord } from './store.js'

/** The HTTP read that tells whether OpenCode is running a session; one per distinct key. */
export interface LiveStatusRequest {
  /** Same key, same request: sessions of one directory (1.x) or of one server (2.x) share one read. */
  key: string
  path: string
  directory?: string
}

/**
 * 1.x keeps run state only in the server's memory, per instance (directory):
 * `GET /session/status?directory=…` answers `{ [sessionID]: { type: 'idle' | 'busy' | 'retry' } }`,
 * with idle sessions left out. 2.x answers `GET /api/session/active` as `{ data: { [sessionID]: … } }`.
 */
export function liveStatusRequest(session: SessionRecord): LiveStatusRequest {
  if (session.storage === 'v1') return { key: `v1:${session.directory}`, path: '/session/status', directory: session.directory }
  return { key: 'v2', path: '/api/session/active' }
}

/** `busy`/`idle` from a status answer; null when the answer is not one Loupe understands (never read as idle). */
export function parseLiveStatus(session: SessionRecord, body: unknown): 'busy' | 'idle' | null {
  if (session.storage === 'v1') {
    // Every entry must have the shape, or none is trusted.
    if (!isRecord(body) || !Object.values(body).every((e) => isRecord(e) && typeof e.type === 'string')) return null
    const entry = body[session.id] as { type: string } | undefined
    return entry === undefined || entry.type === 'idle' ? 'idle' : 'busy'
  }
  if (!isRecord(body) || !isRecord(body.data)) return null
  return body.data[session.id] ? 'busy' : 'idle'
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

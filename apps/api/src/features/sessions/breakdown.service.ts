import { classifyPart } from '@loupe/domain'
import { estimatePartTokens } from '@loupe/domain/tokens'
import type { AppDeps } from '../../deps.js'
import { resolveSession } from './resolve-session.js'
import type { GetSessionInput } from './sessions.schema.js'

export interface BreakdownEntry {
  area: 'part' | 'message' | 'event'
  kind: string
  tool: string | null
  count: number
  bytes: number
  /** Estimated model tokens (o200k) of the parts' text; null where not meaningful (events, message info). */
  tokens: number | null
}

/** Where a session's bytes and tokens go: by part kind and tool, message info, and the event log. */
export function breakdownSession(deps: AppDeps, input: GetSessionInput) {
  const { store, session } = resolveSession(deps.opencode, input.sessionID, input.storage)
  const { db } = deps.opencode
  return db.read(() => {
    const rows = store.bytesBreakdown(db, session.id)
    const tokens = new Map<string, number>()
    for (const part of store.iterateParts(db, session.id)) {
      const info = classifyPart(part, session.storage)
      const key = `${info.type || '?'}\u0000${info.kind === 'tool' ? (info.tool ?? '') : ''}`
      tokens.set(key, (tokens.get(key) ?? 0) + estimatePartTokens(part, session.storage))
    }
    const entries: BreakdownEntry[] = rows.map((row) => ({
      ...row,
      tokens: row.area === 'part' ? (tokens.get(`${row.kind}\u0000${row.tool ?? ''}`) ?? 0) : null,
    }))
    entries.sort((a, b) => b.bytes - a.bytes)
    return {
      storage: session.storage,
      totalBytes: entries.reduce((sum, e) => sum + e.bytes, 0),
      entries,
      usage: { cost: session.cost, tokens: session.tokens },
    }
  })
}

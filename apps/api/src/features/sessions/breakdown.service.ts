import { classifyPart } from '@loupe/domain'
import { modelTextOfPart } from '@loupe/domain/tokens'
import type { AppDeps } from '../../deps.js'
import { resolveSession } from '../../store/resolve-session.js'
import type { GetSessionInput } from './sessions.schema.js'
import type { SessionsDeps } from './sessions.service.js'

export interface BreakdownEntry {
  area: 'part' | 'message' | 'event'
  kind: string
  tool: string | null
  count: number
  bytes: number
  /** Estimated model tokens (o200k) of the parts' text; null where not meaningful (events, message info). */
  tokens: number | null
}

/**
 * Tokenizing is slow next to reading, so a session with hundreds of MB of tool output would take
 * seconds. Past this many characters, each group's tokens are extrapolated from the
 * tokens-per-character ratio of the parts it already counted.
 */
const EXACT_TOKEN_CHARS = 1_000_000
const FALLBACK_TOKENS_PER_CHAR = 0.25

interface TokenTally {
  tokens: number
  countedChars: number
  pendingChars: number
}

/** Where a session's bytes and tokens go: by part kind and tool, message info, and the event log. */
export function breakdownSession(deps: SessionsDeps & Pick<AppDeps, 'tokenizer'>, input: GetSessionInput) {
  const { store, session } = resolveSession(deps.opencode, input.sessionID, input.storage)
  const { db } = deps.opencode
  return db.read(() => {
    const rows = store.bytesBreakdown(db, session.id)
    const tallies = new Map<string, TokenTally>()
    let budget = EXACT_TOKEN_CHARS
    for (const part of store.iterateParts(db, session.id)) {
      const info = classifyPart(part, session.storage)
      const key = `${info.type || '?'}\u0000${info.kind === 'tool' ? (info.tool ?? '') : ''}`
      const tally = tallies.get(key) ?? { tokens: 0, countedChars: 0, pendingChars: 0 }
      tallies.set(key, tally)
      const chars = modelTextOfPart(part, session.storage).length
      if (budget > 0) {
        tally.tokens += deps.tokenizer.estimatePartTokens(part, session.storage)
        tally.countedChars += chars
        budget -= chars
      } else tally.pendingChars += chars
    }
    const tokensOf = (key: string) => {
      const t = tallies.get(key)
      if (!t) return 0
      const ratio = t.countedChars > 0 ? t.tokens / t.countedChars : FALLBACK_TOKENS_PER_CHAR
      return Math.round(t.tokens + t.pendingChars * ratio)
    }
    const sampled = [...tallies.values()].some((t) => t.pendingChars > 0)
    const entries: BreakdownEntry[] = rows.map((row) => ({
      ...row,
      tokens: row.area === 'part' ? tokensOf(`${row.kind}\u0000${row.tool ?? ''}`) : null,
    }))
    entries.sort((a, b) => b.bytes - a.bytes)
    return {
      storage: session.storage,
      totalBytes: entries.reduce((sum, e) => sum + e.bytes, 0),
      entries,
      /** True when some token counts were extrapolated rather than counted part by part. */
      tokensSampled: sampled,
      usage: { cost: session.cost, tokens: session.tokens },
    }
  })
}

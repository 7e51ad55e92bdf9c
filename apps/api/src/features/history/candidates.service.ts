import { hasPositiveTerm, parseQuery, type StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import { docMeta, idCeilForTime, idFloorForTime, maxDocId } from '../../index/search-index.store.js'
import { planMessages, type MessagePlan } from '../pruning/plan.service.js'
import { resolveScope, sessionHeads } from './history-scope.js'
import type { CandidatesInput } from './history.schema.js'
import { matchFor } from './index-search.js'

/** One call plans at most this many messages; the clean-up asks again for the rest. */
export const CANDIDATE_MESSAGES = 2000
/** Matching documents read per call to find those messages. */
const CANDIDATE_DOCS = 50_000

type Candidate = Extract<MessagePlan, { status: 'candidate' }>

export interface CandidateSession {
  sessionID: string
  storage: StorageGeneration
  title: string
  /** Where the session ran: tells apart sessions of one title. */
  directory: string
  candidates: Array<Omit<Candidate, 'status'>>
}

export interface CandidatesAnswer {
  sessions: CandidateSession[]
  totals: { sessions: number; messages: number; tools: number; reasoning: number; bytes: number; tokens: number }
  /** Messages among the hits that stay as they are, by reason (unfinished, busy session, …). */
  skipped: Array<{ reason: string; detail: string; count: number }>
  /** Matching messages with no tool call or reasoning left. */
  alreadyClean: number
  /** More matched than one call plans: run these, then ask again. */
  truncated: boolean
}

// planMessages' own words for a message with nothing technical left (plan.service.ts).
const NOTHING_LEFT = /^No tool calls or reasoning/

/**
 * `history.candidates`: the finished assistant messages behind a query's hits that still have
 * tool calls or reasoning to remove, each with the revision and counts `pruning.pruneBatch`
 * needs, grouped by session. Only assistant-side hits count (user text is never pruned); the
 * pruning service decides what is prunable, exactly as for a whole-session clean-up.
 */
export function candidates(deps: AppDeps, input: CandidatesInput): CandidatesAnswer {
  const query = parseQuery(input.query)
  const scope = resolveScope(deps, input, query)
  const empty: CandidatesAnswer = { sessions: [], totals: { sessions: 0, messages: 0, tools: 0, reasoning: 0, bytes: 0, tokens: 0 }, skipped: [], alreadyClean: 0, truncated: false }
  if (!hasPositiveTerm(query)) return empty
  const db = deps.searchIndex.db
  if (!db || deps.searchIndex.status().state !== 'ready') {
    throw new AppError('unavailable', 'The search index is still being built; cleaning up from results needs it. Try again when the progress bar is done.')
  }
  const { match } = matchFor(db, query, scope)
  if (!match) return empty
  const min = scope.since !== null ? idFloorForTime(scope.since) : 0
  const max = Math.min(scope.until !== null ? idCeilForTime(scope.until) : Number.MAX_SAFE_INTEGER, maxDocId(db))
  const ids = db.pluckSql<number>(`SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER) LIMIT ?`,
    [match.match, min, max, CANDIDATE_DOCS + 1])
  let truncated = ids.length > CANDIDATE_DOCS
  const boundaries = deps.searchIndex.revertBoundaries()
  const bySession = new Map<string, Set<string>>()
  let messages = 0
  for (const doc of docMeta(db, ids.slice(0, CANDIDATE_DOCS)).values()) {
    // Assistant-side documents only: 1.x text/reasoning/tool parts, 2.x assistant content items.
    if (doc.kind === 'user' || doc.kind === 'title' || (doc.gen === 'v2' && !/^\d+$/.test(doc.part_key))) continue
    const key = `${doc.gen}:${doc.session_id}`
    const boundary = boundaries.get(key)
    if (boundary && doc.message_id >= boundary) continue
    const set = bySession.get(key) ?? new Set<string>()
    if (!set.has(doc.message_id)) {
      if (messages === CANDIDATE_MESSAGES) {
        truncated = true
        continue
      }
      messages++
    }
    set.add(doc.message_id)
    bySession.set(key, set)
  }
  return planAll(deps, bySession, truncated, scope.source)
}

function planAll(deps: AppDeps, bySession: Map<string, Set<string>>, truncated: boolean, source: ReturnType<typeof resolveScope>['source']): CandidatesAnswer {
  const answer: CandidatesAnswer = { sessions: [], totals: { sessions: 0, messages: 0, tools: 0, reasoning: 0, bytes: 0, tokens: 0 }, skipped: [], alreadyClean: 0, truncated }
  const skipped = new Map<string, { reason: string; detail: string; count: number }>()
  for (const [key, ids] of bySession) {
    const [storage, sessionID] = key.split(':') as [StorageGeneration, string]
    const plans = planMessages(deps, { sessionID, storage, messageIDs: [...ids].sort() })
    const found: CandidateSession['candidates'] = []
    for (const plan of plans) {
      if (plan.status === 'candidate') {
        const { status: _status, ...candidate } = plan
        found.push(candidate)
        answer.totals.messages++
        answer.totals.tools += plan.toolCount
        answer.totals.reasoning += plan.reasoningCount
        answer.totals.bytes += plan.bytes
        answer.totals.tokens += plan.tokens
      } else if (plan.reason === 'not_deletable' && NOTHING_LEFT.test(plan.detail)) answer.alreadyClean++
      else {
        const entry = skipped.get(plan.reason) ?? { reason: plan.reason, detail: plan.detail, count: 0 }
        entry.count++
        skipped.set(plan.reason, entry)
      }
    }
    if (found.length) answer.sessions.push({ sessionID, storage, title: '', directory: '', candidates: found })
  }
  const heads = deps.opencode.db.read(() => sessionHeads(source, answer.sessions.map((s) => `${s.storage}:${s.sessionID}`)))
  for (const s of answer.sessions) {
    const head = heads.get(`${s.storage}:${s.sessionID}`)
    s.title = head?.title ?? ''
    s.directory = head?.directory ?? ''
  }
  answer.sessions.sort((a, b) => sumBytes(b) - sumBytes(a))
  answer.totals.sessions = answer.sessions.length
  answer.skipped = [...skipped.values()].sort((a, b) => b.count - a.count)
  return answer
}

const sumBytes = (s: CandidateSession) => s.candidates.reduce((n, c) => n + c.bytes, 0)

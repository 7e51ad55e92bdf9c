import { hasPositiveTerm, parseQuery, type StorageGeneration } from '@loupe/domain'
import { AppError } from '../../errors.js'
import { docMeta, matchingIds, newestDocId } from '../../index/search-index.store.js'
import { checkLive, liveKey, type LiveDeps, type LiveLock } from '../../opencode/live-guard.js'
import { resolveSession } from '../../store/resolve-session.js'
import { planMessages, type MessagePlan } from '../pruning/plan.service.js'
import type { IndexSources } from '../../store/index-sources.js'
import { resolveScope, type HistoryDeps } from './history-scope.js'
import type { CandidatesInput } from './history.schema.js'
import { idRange, searchMatch } from './index-search.js'

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
  /** Messages whose matching tool calls and reasoning are gone already. */
  alreadyClean: number
  /** More matched than one call plans: run these, then ask again. */
  truncated: boolean
  /**
   * Messages holding a matching tool call or reasoning, over every round: what the clean-up faces
   * in all before it starts. A floor when `atLeast` (the matches ran past what one call reads).
   */
  matched: { messages: number; atLeast: boolean }
  /** Sessions OpenCode may be running now (checkLive): left out of `sessions` and the totals, with why. */
  locked: Array<Omit<CandidateSession, 'candidates'> & { messages: number; lock: LiveLock }>
}

type CandidatesDeps = HistoryDeps & Parameters<typeof planMessages>[0] & LiveDeps

// planMessages' own words for a message with nothing technical left (plan.service.ts).
const NOTHING_LEFT = /^No tool calls or reasoning/

/**
 * `history.candidates`: the matching tool calls and reasoning of a query's hits, as the finished
 * assistant messages holding them, each with the revision, part indexes and counts
 * `pruning.prune` needs, grouped by session. Only those parts are planned: the rest of a message
 * stays. The pruning service decides what is prunable, as for any prune.
 */
export async function candidates(deps: CandidatesDeps, input: CandidatesInput): Promise<CandidatesAnswer> {
  const query = parseQuery(input.query)
  const scope = resolveScope(deps, input, query)
  const empty: CandidatesAnswer = { sessions: [], totals: { sessions: 0, messages: 0, tools: 0, reasoning: 0, bytes: 0, tokens: 0 }, skipped: [], alreadyClean: 0, truncated: false, matched: { messages: 0, atLeast: false }, locked: [] }
  if (!hasPositiveTerm(query)) return empty
  const db = deps.searchIndex.db
  if (!db || deps.searchIndex.status().state !== 'ready') {
    throw new AppError('unavailable', 'The search index is still being built; cleaning up from results needs it. Try again when the progress bar is done.')
  }
  const horizon = newestDocId(db)
  // The same MATCH as the results the person is looking at.
  const match = searchMatch(db, query, scope, horizon)
  if (!match) return empty
  const ids = matchingIds(db, match.match, idRange(scope, horizon), CANDIDATE_DOCS + 1)
  let truncated = ids.length > CANDIDATE_DOCS
  const boundaries = deps.searchIndex.revertBoundaries()
  // Session → message → the keys of its matching parts.
  const bySession = new Map<string, Map<string, Set<string>>>()
  let messages = 0
  const matched = new Set<string>()
  for (const doc of docMeta(db, ids.slice(0, CANDIDATE_DOCS)).values()) {
    // Matching tool calls and reasoning only (1.x parts, 2.x assistant content items): a match in
    // a message's text or in a tool call the filters left out removes nothing.
    if (doc.kind !== 'tool' && doc.kind !== 'reasoning') continue
    const at = scope.sources.of(doc.gen)?.locate(doc.part_key)
    if (at?.partID === undefined && at?.index === undefined) continue
    const key = `${doc.gen}:${doc.session_id}`
    const boundary = boundaries.get(key)
    if (boundary && doc.message_id >= boundary) continue
    matched.add(`${key}:${doc.message_id}`)
    const session = bySession.get(key)
    let parts = session?.get(doc.message_id)
    if (!parts) {
      if (messages === CANDIDATE_MESSAGES) {
        truncated = true
        continue
      }
      messages++
      parts = new Set()
      if (session) session.set(doc.message_id, parts)
      else bySession.set(key, new Map([[doc.message_id, parts]]))
    }
    parts.add(doc.part_key)
  }
  const answer = planAll(deps, bySession, truncated, scope.sources)
  answer.matched = { messages: matched.size, atLeast: ids.length > CANDIDATE_DOCS }
  return withoutLocked(deps, answer)
}

function planAll(deps: CandidatesDeps, bySession: Map<string, Map<string, Set<string>>>, truncated: boolean, sources: IndexSources): CandidatesAnswer {
  const answer: CandidatesAnswer = { sessions: [], totals: { sessions: 0, messages: 0, tools: 0, reasoning: 0, bytes: 0, tokens: 0 }, skipped: [], alreadyClean: 0, truncated, matched: { messages: 0, atLeast: false }, locked: [] }
  const skipped = new Map<string, { reason: string; detail: string; count: number }>()
  for (const [key, parts] of bySession) {
    const [storage, sessionID] = key.split(':') as [StorageGeneration, string]
    const plans = planMessages(deps, { sessionID, storage, messageIDs: [...parts.keys()].sort(), parts })
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
  const heads = deps.opencode.db.read(() => sources.heads(deps.opencode.db, answer.sessions.map((s) => `${s.storage}:${s.sessionID}`)))
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

/** Take a session's planned messages out of the totals. */
function subtract(totals: CandidatesAnswer['totals'], planned: CandidateSession['candidates']) {
  totals.messages -= planned.length
  for (const c of planned) {
    totals.tools -= c.toolCount
    totals.reasoning -= c.reasoningCount
    totals.bytes -= c.bytes
    totals.tokens -= c.tokens
  }
}

/**
 * Sessions OpenCode may be running move from the plan to `locked`, so a clean-up never starts on
 * them; a session deleted since the index read it drops out rather than failing the whole plan.
 */
async function withoutLocked(deps: CandidatesDeps, answer: CandidatesAnswer): Promise<CandidatesAnswer> {
  if (answer.sessions.length === 0) return answer
  const present: Array<{ s: CandidateSession; resolved: ReturnType<typeof resolveSession> }> = []
  for (const s of answer.sessions) {
    try {
      present.push({ s, resolved: resolveSession(deps.opencode, s.sessionID, s.storage) })
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'not_found') throw error
      subtract(answer.totals, s.candidates)
    }
  }
  const verdicts = await checkLive(deps, present.map((p) => p.resolved))
  const open: CandidateSession[] = []
  for (const { s } of present) {
    const verdict = verdicts.get(liveKey({ storage: s.storage, id: s.sessionID }))
    if (verdict?.state !== 'locked') {
      open.push(s)
      continue
    }
    const { candidates: planned, ...head } = s
    answer.locked.push({ ...head, messages: planned.length, lock: verdict.lock })
    subtract(answer.totals, planned)
  }
  answer.sessions = open
  answer.totals.sessions = open.length
  return answer
}

const sumBytes = (s: CandidateSession) => s.candidates.reduce((n, c) => n + c.bytes, 0)

import { createHash } from 'node:crypto'
import type { PruneBlock, StorageGeneration } from '@loupe/domain'
import type { LiveVerdict } from '../../opencode/live-guard.js'
import type { OpenCodeStores, SessionRecord } from '../../store/store.js'
import { planSessionWith, type PartSelection, type PlanReader } from '../pruning/plan.service.js'

/** The plan lists this many sessions; its totals and fingerprint cover all of them. */
export const CLEAN_LISTED_SESSIONS = 200

/** One message's part of a clean-up: all its technical parts, or (with a size rule) these indexes. */
export interface CleanTarget {
  messageID: string
  revision: string
  indexes: number[] | null
  parts: number
  bytes: number
  tokens: number
}

export interface CleanSession {
  sessionID: string
  storage: StorageGeneration
  title: string
  /** Where it ran: with the date and the id, tells apart sessions of one title. */
  directory: string
  timeUpdated: number
  targets: CleanTarget[]
  parts: number
  bytes: number
  tokens: number
}

export interface CleanPlan {
  /** A hash of the exact candidates and their revisions: apply refuses with `conflict` when it differs. */
  fingerprint: string
  sessions: number
  parts: number
  bytes: number
  tokens: number
  /** Idle sessions left out, and why (OpenCode is running one, it is compacting, …). */
  skipped: { sessionID: string; storage: StorageGeneration; reason: string }[]
  list: Omit<CleanSession, 'targets'>[]
  /** Every session with its targets, in a fixed order (apply walks it); empty when only described. */
  all: CleanSession[]
}

/** What the server's thread decided before the plan's reads: the sessions, their live verdicts, the write targets. */
export interface CleanPlanInput {
  sessions: { session: SessionRecord; live: LiveVerdict }[]
  /** checkWriteTarget of each generation's store on the server's connection (null: writes may land). */
  writeTargets: Partial<Record<StorageGeneration, PruneBlock | null>>
  minToolOutputBytes: number | null
  /** False: the totals, fingerprint and listed sessions only (what a client is shown). */
  targets: boolean
}

/** With a size rule: only the tool parts stored at this many bytes or more, as the message preview lists them. */
const sizedParts = (minBytes: number): PartSelection => ({ select: () => (p) => p.type === 'tool' && p.bytes >= minBytes, media: true })

/**
 * The plan's totals, built one session at a time: the fingerprint hashes each target as it comes,
 * and only the listed sessions (and, for apply, every target) are kept, so describing a plan holds
 * no more than its list however large the history.
 */
function createPlanTotals(targets: boolean) {
  const hash = createHash('sha256')
  const all: CleanSession[] = []
  const list: CleanPlan['list'] = []
  const skipped: CleanPlan['skipped'] = []
  const sums = { sessions: 0, parts: 0, bytes: 0, tokens: 0 }
  return {
    skip: (entry: CleanPlan['skipped'][number]) => skipped.push(entry),
    add(session: CleanSession) {
      for (const t of session.targets) hash.update(JSON.stringify([session.storage, session.sessionID, t.messageID, t.revision, t.indexes]))
      Object.assign(sums, { sessions: sums.sessions + 1, parts: sums.parts + session.parts, bytes: sums.bytes + session.bytes, tokens: sums.tokens + session.tokens })
      if (list.length < CLEAN_LISTED_SESSIONS) list.push((({ targets: _targets, ...rest }) => rest)(session))
      if (targets) all.push(session)
    },
    finish: (): CleanPlan => ({ fingerprint: hash.digest('hex'), ...sums, skipped, list, all }),
  }
}

/** The plan of no session: what a history with nothing idle plans, without a thread. */
export const emptyCleanPlan = (): CleanPlan => createPlanTotals(false).finish()

/** Plan every session of `input` through the session plan (the same refusals), and total them. */
export function buildCleanPlan(reader: PlanReader, stores: OpenCodeStores, input: CleanPlanInput): CleanPlan {
  const selection = input.minToolOutputBytes ? sizedParts(input.minToolOutputBytes) : {}
  const totals = createPlanTotals(input.targets)
  for (const { session, live } of input.sessions) {
    const store = stores.byGeneration[session.storage]
    if (!store) continue
    const plan = planSessionWith(reader, { session, store }, live, selection)
    if (plan.block) {
      if (plan.candidates.length > 0) totals.skip({ sessionID: session.id, storage: session.storage, reason: plan.block.detail })
      continue
    }
    const targets = plan.candidates.map((c): CleanTarget =>
      ({ messageID: c.messageID, revision: c.revision, indexes: c.indexes ?? null, parts: c.toolCount + c.reasoningCount, bytes: c.bytes, tokens: c.tokens }))
    if (targets.length === 0) continue
    const sum = (k: 'parts' | 'bytes' | 'tokens') => targets.reduce((n, t) => n + t[k], 0)
    totals.add({ sessionID: session.id, storage: session.storage, title: session.title, directory: session.directory, timeUpdated: session.timeUpdated, targets, parts: sum('parts'), bytes: sum('bytes'), tokens: sum('tokens') })
  }
  return totals.finish()
}

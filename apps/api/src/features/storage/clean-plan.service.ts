import { createHash } from 'node:crypto'
import type { StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import { checkLive, liveKey } from '../../opencode/live-guard.js'
import type { SessionRecord } from '../../store/store.js'
import { planSessionWith, type PartSelection } from '../pruning/plan.service.js'
import type { CleanRule } from './storage.schema.js'

const DAY_MS = 24 * 60 * 60 * 1000
const PAGE = 500
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
  /** Every session with its targets, in a fixed order (apply walks it). */
  all: CleanSession[]
}

/** Sessions whose last activity is at least `idleDays` old, oldest first, of every readable generation. */
function idleSessions(deps: AppDeps, rule: CleanRule): SessionRecord[] {
  const cutoff = deps.clock.now() - rule.idleDays * DAY_MS
  const { db, stores } = deps.opencode
  const out: SessionRecord[] = []
  db.read(() => {
    for (const store of stores.all) {
      let before: { timeUpdated: number; id: string; inclusive: boolean } | undefined
      for (;;) {
        const page = store.listSessions(db, { projectID: rule.projectID, includeArchived: true, rootsOnly: false, before, limit: PAGE })
        out.push(...page.filter((s) => s.timeUpdated <= cutoff))
        const last = page.at(-1)
        if (!last || page.length < PAGE) break
        before = { timeUpdated: last.timeUpdated, id: last.id, inclusive: false }
      }
    }
  })
  return out.sort((a, b) => a.timeUpdated - b.timeUpdated || a.id.localeCompare(b.id) || a.storage.localeCompare(b.storage))
}

/** With a size rule: only the tool parts stored at this many bytes or more, as the message preview lists them. */
const sizedParts = (minBytes: number): PartSelection => ({ select: () => (p) => p.type === 'tool' && p.bytes >= minBytes, media: true })

/**
 * What a DB-wide retention clean-up would remove: the technical parts (tool calls and reasoning) of
 * finished assistant messages in sessions idle for at least N days, optionally of one project,
 * optionally only tool parts of at least K KB. Read-only; the same refusals as a session clean-up.
 */
export async function planClean(deps: AppDeps, rule: CleanRule): Promise<CleanPlan> {
  const { opencode } = deps
  const idle = idleSessions(deps, rule).flatMap((session) => {
    const store = opencode.stores.byGeneration[session.storage]
    return store ? [{ session, store }] : []
  })
  if (idle.length > 0 && !opencode.layout.readable) {
    throw new AppError('unsupported_storage', `Loupe does not recognize this database's schema: ${opencode.layout.problems.join('; ')}`)
  }
  // One live check for the whole plan (one scan of the file's holders, one status read per
  // directory): planning only reads, and apply asks again before it writes.
  const verdicts = await checkLive(deps, idle)
  const selection = rule.minToolOutputKB ? sizedParts(rule.minToolOutputKB * 1024) : {}
  const all: CleanSession[] = []
  const skipped: CleanPlan['skipped'] = []
  for (const ctx of idle) {
    const { session } = ctx
    const live = verdicts.get(liveKey(session))
    if (!live) throw new Error('checkLive answers every session it is given')
    const plan = planSessionWith(deps, ctx, live, selection)
    if (plan.block) {
      if (plan.candidates.length > 0) skipped.push({ sessionID: session.id, storage: session.storage, reason: plan.block.detail })
      continue
    }
    const targets = plan.candidates.map((c): CleanTarget =>
      ({ messageID: c.messageID, revision: c.revision, indexes: c.indexes ?? null, parts: c.toolCount + c.reasoningCount, bytes: c.bytes, tokens: c.tokens }))
    if (targets.length === 0) continue
    const sum = (k: 'parts' | 'bytes' | 'tokens') => targets.reduce((n, t) => n + t[k], 0)
    all.push({ sessionID: session.id, storage: session.storage, title: session.title, directory: session.directory, timeUpdated: session.timeUpdated, targets, parts: sum('parts'), bytes: sum('bytes'), tokens: sum('tokens') })
  }
  const hash = createHash('sha256')
  for (const s of all) for (const t of s.targets) hash.update(JSON.stringify([s.storage, s.sessionID, t.messageID, t.revision, t.indexes]))
  const total = (k: 'parts' | 'bytes' | 'tokens') => all.reduce((n, s) => n + s[k], 0)
  return {
    fingerprint: hash.digest('hex'),
    sessions: all.length,
    parts: total('parts'),
    bytes: total('bytes'),
    tokens: total('tokens'),
    skipped,
    list: all.slice(0, CLEAN_LISTED_SESSIONS).map(({ targets: _targets, ...rest }) => rest),
    all,
  }
}

/** The plan as the client sees it: totals, fingerprint, the listed sessions (not every target). */
export async function describeCleanPlan(deps: AppDeps, rule: CleanRule): Promise<Omit<CleanPlan, 'all'>> {
  const { all: _all, ...plan } = await planClean(deps, rule)
  return plan
}

import { createHash } from 'node:crypto'
import type { StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import type { SessionRecord } from '../../store/store.js'
import { previewMessage, sessionPlan } from '../pruning/pruning.service.js'
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

/** With a size rule: only the tool parts of each candidate message stored at this many bytes or more. */
async function sizedTargets(deps: AppDeps, session: SessionRecord, messageIDs: string[], minBytes: number): Promise<CleanTarget[]> {
  const out: CleanTarget[] = []
  for (const messageID of messageIDs) {
    const preview = await previewMessage(deps, { sessionID: session.id, storage: session.storage, messageID })
    if (preview.status !== 'preview') continue
    const parts = preview.parts.filter((p) => p.type === 'tool' && p.bytes >= minBytes)
    if (parts.length === 0) continue
    const sum = (k: 'bytes' | 'tokens') => parts.reduce((n, p) => n + p[k], 0)
    out.push({ messageID, revision: preview.revision, indexes: parts.map((p) => p.index), parts: parts.length, bytes: sum('bytes'), tokens: sum('tokens') })
  }
  return out
}

/**
 * What a DB-wide retention clean-up would remove: the technical parts (tool calls and reasoning) of
 * finished assistant messages in sessions idle for at least N days, optionally of one project,
 * optionally only tool parts of at least K KB. Read-only; the same refusals as a session clean-up.
 */
export async function planClean(deps: AppDeps, rule: CleanRule): Promise<CleanPlan> {
  const all: CleanSession[] = []
  const skipped: CleanPlan['skipped'] = []
  for (const session of idleSessions(deps, rule)) {
    const plan = await sessionPlan(deps, { sessionID: session.id, storage: session.storage })
    if (plan.block) {
      if (plan.candidates.length > 0) skipped.push({ sessionID: session.id, storage: session.storage, reason: plan.block.detail })
      continue
    }
    const targets = rule.minToolOutputKB
      ? await sizedTargets(deps, session, plan.candidates.map((c) => c.messageID), rule.minToolOutputKB * 1024)
      : plan.candidates.map((c) => ({ messageID: c.messageID, revision: c.revision, indexes: null, parts: c.toolCount + c.reasoningCount, bytes: c.bytes, tokens: c.tokens }))
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

import type { PruneBlock, StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import { startWorker } from '../../lib/worker.js'
import { checkLive, liveKey } from '../../opencode/live-guard.js'
import type { SessionRecord } from '../../store/store.js'
import { checkWriteTarget } from '../pruning/fences.js'
import { mergeTokenMemo } from '../pruning/token-memo.js'
import { emptyCleanPlan, type CleanPlan, type CleanPlanInput } from './clean-plan-build.js'
import type { CleanPlanWorkerData, CleanPlanWorkerMessage } from './clean-plan.worker.js'
import type { CleanRule } from './storage.schema.js'

export { CLEAN_LISTED_SESSIONS, type CleanPlan, type CleanSession, type CleanTarget } from './clean-plan-build.js'

const DAY_MS = 24 * 60 * 60 * 1000
const PAGE = 500

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

/** One plan's thread: it reads, tokenizes and totals; the server's token memo takes back what it counted. */
function planInWorker(deps: AppDeps, input: CleanPlanInput): Promise<CleanPlan> {
  const { opencode } = deps
  const data: CleanPlanWorkerData = { path: opencode.path, layout: opencode.layout, input, memo: deps.pruning.tokens.counts }
  return new Promise<CleanPlan>((resolve, reject) => {
    const worker = startWorker(new URL('./clean-plan.worker.mjs', import.meta.url), data, 'storageJob')
    let settled = false
    const settle = (error: AppError | null, plan?: CleanPlan) => {
      if (settled) return
      settled = true
      if (plan) resolve(plan)
      else reject(error)
    }
    worker.on('message', (m: CleanPlanWorkerMessage) => {
      if (m.type === 'done') {
        mergeTokenMemo(deps.pruning.tokens, m.memo)
        settle(null, m.plan)
      } else settle(new AppError('unavailable', `The clean-up plan could not read the database: ${m.message}`))
    })
    worker.on('error', (error) => settle(new AppError('unavailable', `The clean-up plan stopped: ${error.message}`)))
    worker.on('exit', () => settle(new AppError('unavailable', 'The clean-up plan stopped before it finished.')))
  })
}

/**
 * What a DB-wide retention clean-up would remove: the technical parts (tool calls and reasoning) of
 * finished assistant messages in sessions idle for at least N days, optionally of one project,
 * optionally only tool parts of at least K KB. Read-only; the same refusals as a session clean-up.
 * Plans run one at a time (each thread holds a tokenizer); `targets: false` leaves out `all`.
 */
export function planClean(deps: AppDeps, rule: CleanRule, options: { targets: boolean } = { targets: true }): Promise<CleanPlan> {
  const queue = deps.storage.cleanPlans
  const run = queue.tail.then(() => planNow(deps, rule, options.targets))
  queue.tail = run.catch(() => {})
  return run
}

async function planNow(deps: AppDeps, rule: CleanRule, targets: boolean): Promise<CleanPlan> {
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
  const sessions = idle.map(({ session }) => {
    const live = verdicts.get(liveKey(session))
    if (!live) throw new Error('checkLive answers every session it is given')
    return { session, live }
  })
  if (sessions.length === 0) return emptyCleanPlan()
  // Whether a write could land is the server's connection's answer (the thread's is read-only).
  const writeTargets: Partial<Record<StorageGeneration, PruneBlock | null>> = opencode.db.read(() =>
    Object.fromEntries(opencode.stores.all.map((store) => [store.generation, checkWriteTarget(opencode, store.prune) ?? null])))
  return planInWorker(deps, { sessions, writeTargets, minToolOutputBytes: rule.minToolOutputKB ? rule.minToolOutputKB * 1024 : null, targets })
}

/** The plan as the client sees it: totals, fingerprint, the listed sessions (not every target). */
export async function describeCleanPlan(deps: AppDeps, rule: CleanRule): Promise<Omit<CleanPlan, 'all'>> {
  const { all: _all, ...plan } = await planClean(deps, rule, { targets: false })
  return plan
}

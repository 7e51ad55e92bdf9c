import { LIMITS } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import { LIVE_VERDICT_MS, checkLive, checkLiveSession, liveKey, type LiveVerdict } from '../../opencode/live-guard.js'
import { pruneContext, type Blocked, type PruneContext } from '../pruning/prune-context.js'
import { foldWal } from '../pruning/pruning-runtime.js'
import { pruneBatchWith, pruneMessageWith, type PruneResult } from '../pruning/pruning.service.js'
import { planClean, type CleanPlan, type CleanSession } from './clean-plan.service.js'
import { emptyTally, type CleanResult, type CleanRunning } from './clean-runner.js'
import type { JobControl } from './job-runner.js'
import type { CleanApplyInput } from './storage.schema.js'

export { createCleanRunner, type CleanResult, type CleanRunner, type CleanState, type CleanTally } from './clean-runner.js'

export type CleanStart =
  | { status: 'started'; sessions: number; parts: number; bytes: number; tokens: number }
  | { status: 'conflict'; detail: string }
  | { status: 'refused'; detail: string }

/** Sessions per live check (one scan of the file's holders); its verdicts hold for LIVE_VERDICT_MS. */
const LIVE_GROUP = 64

type Outcome = { result: PruneResult; bytes: number; tokens: number }

/** The session's verdict, asked again before a write once it is older than LIVE_VERDICT_MS. */
type Verdict = () => Promise<LiveVerdict>

function freshVerdict(deps: AppDeps, ctx: PruneContext, first: LiveVerdict, askedAt: number): Verdict {
  let verdict = first
  let at = askedAt
  return async () => {
    if (performance.now() - at > LIVE_VERDICT_MS) {
      at = performance.now()
      verdict = await checkLiveSession(deps, ctx)
    }
    return verdict
  }
}

async function pruneSession(deps: AppDeps, s: CleanSession, ctx: PruneContext | Blocked, live: Verdict | undefined): Promise<Outcome[]> {
  // Gone or unreadable since the plan, or (never expected) not asked: every target stays as it was.
  if ('status' in ctx || !live) {
    const result: PruneResult = 'status' in ctx ? ctx : { status: 'blocked', reason: 'maintenance_required', detail: 'Loupe could not tell whether OpenCode is running this session.' }
    return s.targets.map((t) => ({ result, bytes: t.bytes, tokens: t.tokens }))
  }
  const out: Outcome[] = []
  const whole = s.targets.filter((t) => t.indexes === null)
  for (let i = 0; i < whole.length; i += LIMITS.pruneBatchMax) {
    const chunk = whole.slice(i, i + LIMITS.pruneBatchMax)
    const results = await pruneBatchWith(deps, ctx, await live(), chunk.map((t) => ({ messageID: t.messageID, revision: t.revision })))
    results.forEach((r, j) => out.push({ result: r.result, bytes: chunk[j]?.bytes ?? 0, tokens: chunk[j]?.tokens ?? 0 }))
  }
  for (const t of s.targets) {
    if (t.indexes === null) continue
    out.push({ result: pruneMessageWith(deps, ctx, await live(), { messageID: t.messageID, revision: t.revision, indexes: t.indexes }), bytes: t.bytes, tokens: t.tokens })
  }
  foldWal(deps)
  return out
}

function resolveFor(deps: AppDeps, s: CleanSession): PruneContext | Blocked {
  try {
    return pruneContext(deps.opencode, s.sessionID, s.storage)
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'not_found')) throw error
    return { status: 'blocked', reason: 'not_deletable', detail: 'This session is not in the database any more.' }
  }
}

/**
 * Apply a plan session by session through the same prune path (receipts, redacted events, refusal
 * of anything live) as a session clean-up; the runner's stop is honoured between sessions.
 */
export async function runClean(deps: AppDeps, plan: CleanPlan, job: Pick<JobControl<CleanRunning>, 'signal' | 'report'>): Promise<CleanResult> {
  const done = emptyTally()
  let stopped = false
  // One live check for a group of sessions, asked again for the rest of the group (and within a
  // session, before its next write) once the answer is LIVE_VERDICT_MS old.
  for (let i = 0; i < plan.all.length && !stopped; ) {
    const group = plan.all.slice(i, i + LIVE_GROUP).map((s) => ({ s, ctx: resolveFor(deps, s) }))
    const askedAt = performance.now()
    const verdicts = await checkLive(deps, group.flatMap((g) => ('status' in g.ctx ? [] : [g.ctx])))
    for (const [n, { s, ctx }] of group.entries()) {
      if (job.signal.aborted) {
        stopped = true
        break
      }
      if (n > 0 && performance.now() - askedAt > LIVE_VERDICT_MS) break
      i++
      const first = 'status' in ctx ? undefined : verdicts.get(liveKey(ctx.session))
      const live = first && !('status' in ctx) ? freshVerdict(deps, ctx, first, askedAt) : undefined
      let any = false
      for (const { result, bytes, tokens } of await pruneSession(deps, s, ctx, live)) {
        if (result.status !== 'pruned') {
          done.blocked += 1
          continue
        }
        any = true
        Object.assign(done, { messages: done.messages + 1, parts: done.parts + result.removedCount, bytes: done.bytes + bytes, tokens: done.tokens + tokens })
      }
      if (any) done.sessions += 1
      job.report({ done: { ...done } })
    }
  }
  const planned = { sessions: plan.sessions, parts: plan.parts, bytes: plan.bytes, tokens: plan.tokens }
  const message = `${stopped ? 'Stopped' : 'Done'}: ${done.parts} parts removed from ${done.messages} messages${done.blocked ? `, ${done.blocked} messages left as they were` : ''}. ` +
    'Their bytes leave the file once the event log is compacted and space reclaimed.'
  return { status: stopped ? 'stopped' : 'done', pruned: done, planned, message }
}

/** Plan again and start only if the fingerprint is the one the person saw. */
export async function startClean(deps: AppDeps, input: CleanApplyInput, options: { wait: boolean } = { wait: false }): Promise<CleanStart & { result?: CleanResult }> {
  const plan = await planClean(deps, input.rule)
  if (plan.fingerprint !== input.fingerprint) {
    return { status: 'conflict', detail: 'The history changed since this plan was made (new activity, or a prune elsewhere). Review the plan again.' }
  }
  const planned = { sessions: plan.sessions, parts: plan.parts, bytes: plan.bytes, tokens: plan.tokens }
  const total = { sessions: plan.sessions, messages: plan.all.reduce((n, s) => n + s.targets.length, 0) }
  // What committed before a failure stays removed, so the outcome reports it rather than zero.
  let committed = emptyTally()
  const run = deps.storage.clean.run({
    now: () => deps.clock.now(),
    initial: { done: emptyTally(), total, stopping: false },
    onError: (error) => ({ status: 'stopped', pruned: committed, planned, message: `The clean-up stopped: ${(error as Error).message} ${committed.parts} parts removed before that stay removed.` }),
  }, (job) => runClean(deps, plan, {
    signal: job.signal,
    report: (patch) => {
      if (patch.done) committed = patch.done
      job.report(patch)
    },
  }))
  if (!run) return { status: 'refused', detail: 'A clean-up is already running.' }
  const started = { status: 'started' as const, ...planned }
  if (options.wait) return { ...started, result: await run }
  void run.catch(() => {})
  return started
}

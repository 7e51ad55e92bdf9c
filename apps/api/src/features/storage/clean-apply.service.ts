import { LIMITS } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { pruneBatch, pruneMessage, type PruneResult } from '../pruning/pruning.service.js'
import { planClean, type CleanPlan, type CleanSession } from './clean-plan.service.js'
import { emptyTally, type CleanResult, type CleanRunning } from './clean-runner.js'
import type { JobControl } from './job-runner.js'
import type { CleanApplyInput } from './storage.schema.js'

export { createCleanRunner, type CleanResult, type CleanRunner, type CleanState, type CleanTally } from './clean-runner.js'

export type CleanStart =
  | { status: 'started'; sessions: number; parts: number; bytes: number; tokens: number }
  | { status: 'conflict'; detail: string }
  | { status: 'refused'; detail: string }

async function pruneSession(deps: AppDeps, s: CleanSession): Promise<Array<{ result: PruneResult; bytes: number; tokens: number }>> {
  const out: Array<{ result: PruneResult; bytes: number; tokens: number }> = []
  const whole = s.targets.filter((t) => t.indexes === null)
  for (let i = 0; i < whole.length; i += LIMITS.pruneBatchMax) {
    const chunk = whole.slice(i, i + LIMITS.pruneBatchMax)
    const { results } = await pruneBatch(deps, { sessionID: s.sessionID, storage: s.storage, candidates: chunk.map((t) => ({ messageID: t.messageID, revision: t.revision })) })
    results.forEach((r, j) => out.push({ result: r.result, bytes: chunk[j]?.bytes ?? 0, tokens: chunk[j]?.tokens ?? 0 }))
  }
  for (const t of s.targets) {
    if (t.indexes === null) continue
    out.push({ result: await pruneMessage(deps, { sessionID: s.sessionID, storage: s.storage, messageID: t.messageID, revision: t.revision, indexes: t.indexes }), bytes: t.bytes, tokens: t.tokens })
  }
  return out
}

/**
 * Apply a plan session by session through the same prune path (receipts, redacted events, refusal
 * of anything live) as a session clean-up; the runner's stop is honoured between sessions.
 */
export async function runClean(deps: AppDeps, plan: CleanPlan, job: Pick<JobControl<CleanRunning>, 'signal' | 'report'>): Promise<CleanResult> {
  const done = emptyTally()
  let stopped = false
  for (const s of plan.all) {
    if (job.signal.aborted) {
      stopped = true
      break
    }
    let any = false
    for (const { result, bytes, tokens } of await pruneSession(deps, s)) {
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
  const run = deps.storage.clean.run({
    now: () => deps.clock.now(),
    initial: { done: emptyTally(), total, stopping: false },
    onError: (error) => ({ status: 'stopped', pruned: emptyTally(), planned, message: `The clean-up stopped: ${(error as Error).message}` }),
  }, (job) => runClean(deps, plan, job))
  if (!run) return { status: 'refused', detail: 'A clean-up is already running.' }
  const started = { status: 'started' as const, ...planned }
  if (options.wait) return { ...started, result: await run }
  void run.catch(() => {})
  return started
}

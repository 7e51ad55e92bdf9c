import { setImmediate as yieldToLoop } from 'node:timers/promises'
import type { AppDeps } from '../../deps.js'
import {
  CompactionConflict,
  type EventCompactionStore,
  type EventLogSession,
  type Redaction,
  type SessionCompactionPlan,
} from '../../store/event-compaction.store.js'
import type { OpenCodeStore } from '../../store/store.js'
import { checkWriteTarget, fenceSession } from '../pruning/fences.js'
import { foldWal } from '../pruning/pruning-runtime.js'
import type { LiveSession } from '../../opencode/live-guard.js'
import { createLiveWindow, type LiveWindow } from './compact-live.js'
import { createCompactPlanner, type CompactPlanner } from './compact-planner.js'
import type { CompactAnswer, CompactProgress, CompactSession } from './compact-answer.js'
import type { CompactInput } from './storage.schema.js'

export type { CompactAnswer, CompactProgress, CompactSession } from './compact-answer.js'

export type CompactDeps = Pick<AppDeps, 'opencode' | 'config' | 'opencodeClient' | 'clock'>

/** One generation's log to compact, and the store whose role it is. */
interface CompactTarget {
  log: EventCompactionStore
  store: OpenCodeStore
}

/** Event payload bytes per write transaction: a commit never holds OpenCode off for long. */
export const BATCH_EVENT_BYTES = 64 * 1024 * 1024

type Refusal = { sessionID: string; reason: string }
type SessionOutcome = { kind: 'done'; summary: CompactSession } | { kind: 'refused'; reason: string } | { kind: 'stop'; reason: string; summary?: CompactSession }

/**
 * The session as the store of its own generation reads it: the log's store first, then the others.
 * A log is shared by every generation whose sessions write to it, and 1.18's experimental sessions
 * keep rows in `session` beside 1.x ones while their run state is the 2.x one: their fences and live
 * check are the experimental store's, while the 1.x planner reads their events.
 */
function findOwner(deps: CompactDeps, target: CompactTarget, sessionID: string): LiveSession | undefined {
  const { db, stores } = deps.opencode
  const order = [target.store, ...stores.all.filter((s) => s !== target.store)]
  return db.read(() => {
    for (const store of order) {
      const session = store.getSession(db, sessionID)
      if (session) return { store, session }
    }
    return undefined
  })
}

const GONE = 'This session is not in the database any more.'

/** How a run goes: `signal` stops it after the current batch; `batchBytes` bounds each transaction (tests make it small). */
export interface CompactRunOptions {
  signal?: AbortSignal
  batchBytes?: number
}

function batchesOf(redactions: readonly Redaction[], limit: number): Redaction[][] {
  const out: Redaction[][] = []
  let current: Redaction[] = []
  let bytes = 0
  for (const r of redactions) {
    if (current.length > 0 && bytes + r.bytes > limit) {
      out.push(current)
      current = []
      bytes = 0
    }
    current.push(r)
    bytes += r.bytes
  }
  if (current.length > 0) out.push(current)
  return out
}

const summarize = (s: EventLogSession, plan: SessionCompactionPlan, redacted: number, after: number): CompactSession => ({
  sessionID: s.sessionID,
  title: s.title,
  events: plan.events,
  eventsRedacted: redacted,
  eventBytesBefore: plan.eventBytes,
  eventBytesAfter: after,
  alreadyRedacted: plan.alreadyRedacted,
  kept: plan.kept,
  unknownTypes: plan.unknownTypes,
})

/** Write one session's redactions in bounded batches, each behind the live check, the file check and the fences. */
async function writeSession(deps: CompactDeps, target: CompactTarget, owner: LiveSession, s: Planned, plan: SessionCompactionPlan, progress: (bytes: number) => void, options: CompactRunOptions): Promise<SessionOutcome> {
  const fences = owner.store.prune
  const { db } = deps.opencode
  let redacted = 0
  let after = plan.eventBytes
  const halt = (reason: string): SessionOutcome => (redacted > 0 ? { kind: 'stop', reason, summary: summarize(s, plan, redacted, after) } : { kind: 'refused', reason })
  for (const batch of batchesOf(plan.redactions, options.batchBytes ?? BATCH_EVENT_BYTES)) {
    if (options.signal?.aborted) return { kind: 'stop', reason: 'Stopped on request; what was compacted stays compacted, and a new run continues from there.', summary: summarize(s, plan, redacted, after) }
    const bytes = batch.reduce((sum, r) => sum + r.bytes, 0)
    const live = await s.live.refusal(s.index, bytes)
    if (live) return halt(live)
    try {
      const outcome = db.write((): { block: string } | { bytes: { before: number; after: number } } => {
        const block = checkWriteTarget(deps.opencode, fences) ?? fenceSession(fences.sessionFence(db, s.sessionID))
        if (block) return { block: block.detail }
        if (!target.log.newestStillThere(db, s.sessionID, plan.newest)) throw new CompactionConflict('the log changed')
        return { bytes: target.log.apply(db, s.sessionID, batch) }
      })
      if (!outcome.ok) return { kind: 'stop', reason: 'OpenCode is writing to the database right now; run the compaction again in a moment.', summary: summarize(s, plan, redacted, after) }
      if ('block' in outcome.value) return halt(outcome.value.block)
      s.live.spend(bytes)
      redacted += batch.length
      after -= outcome.value.bytes.before - outcome.value.bytes.after
      progress(outcome.value.bytes.before)
    } catch (error) {
      if (error instanceof CompactionConflict) return halt('The session changed while Loupe compacted it; run the compaction again.')
      throw error
    }
    foldWal(deps)
    await yieldToLoop()
  }
  return { kind: 'done', summary: summarize(s, plan, redacted, after) }
}

/** A session of the run: its place in it, the live checks it shares with its neighbours, the run's planning thread. */
type Planned = EventLogSession & { index: number; live: LiveWindow; planner: CompactPlanner }

async function compactSession(deps: CompactDeps, target: CompactTarget, s: Planned, dryRun: boolean, progress: (bytes: number) => void, options: CompactRunOptions): Promise<SessionOutcome> {
  const { db } = deps.opencode
  const owner = findOwner(deps, target, s.sessionID)
  if (!owner) return { kind: 'refused', reason: GONE }
  const fence = fenceSession(db.read(() => owner.store.prune.sessionFence(db, s.sessionID)))
  if (fence) return { kind: 'refused', reason: fence.detail }
  const live = await s.live.refusal(s.index)
  if (live) return { kind: 'refused', reason: live }
  const planned = await s.planner.plan(target.store.generation, s.sessionID)
  if (typeof planned === 'string') return { kind: 'refused', reason: planned }
  if (!planned.ok) return { kind: 'refused', reason: `${planned.reason}; nothing in this session was changed.` }
  const { plan } = planned
  if (dryRun) {
    const after = plan.redactions.reduce((sum, r) => sum - r.bytes + r.estimatedBytes, plan.eventBytes)
    progress(s.bytes)
    return { kind: 'done', summary: summarize(s, plan, plan.redactions.length, after) }
  }
  return writeSession(deps, target, owner, s, plan, progress, options)
}

/**
 * Compact 1.x event logs: every part, message or session snapshot followed later by a snapshot of
 * the same entity is redacted in place to the smallest valid event of its type, so a replay of the
 * log still ends at the same messages and parts. A dry run reads only. Sessions owned remotely, in a
 * workspace, running, compacting or reverting are refused and listed. Resumable: a second run finds
 * the redacted events and changes nothing.
 */
export async function compactEventLog(deps: CompactDeps, input: CompactInput, onProgress?: (p: CompactProgress) => void, options: CompactRunOptions = {}): Promise<CompactAnswer> {
  const { opencode } = deps
  const notes = opencode.stores.all.flatMap((store) => (store.eventCompaction.note ? [store.eventCompaction.note] : []))
  const answer: CompactAnswer = { status: 'done', dryRun: input.dryRun, sessions: 0, eventsRedacted: 0, eventBytesBefore: 0, eventBytesAfter: 0, refused: [], perSession: [], detail: null, notes }
  const targets = opencode.stores.all.flatMap((store): CompactTarget[] => (store.eventCompaction.log ? [{ log: store.eventCompaction.log, store }] : []))
  if (targets.length === 0) {
    answer.notes.push('This database has no event log of snapshots to compact; nothing to do.')
    return answer
  }
  if (!input.dryRun) {
    const block = opencode.db.read(() => opencode.stores.all.map((store) => checkWriteTarget(opencode, store.prune)).find(Boolean))
    if (block) return { ...answer, status: 'refused', detail: block.detail }
  }
  const sessions = opencode.db.read(() => targets.flatMap((target) => target.log.listSessions(opencode.db, input.sessionIDs).map((s) => ({ ...s, target }))))
  const total = sessions.reduce((sum, s) => sum + s.bytes, 0)
  const live = createLiveWindow(deps, sessions, options.batchBytes ?? BATCH_EVENT_BYTES, (i) => findOwner(deps, sessions[i]!.target, sessions[i]!.sessionID))
  let done = 0
  const planner = createCompactPlanner(opencode)
  try {
    for (const [index, s] of sessions.entries()) {
      const progress = (bytes: number) => {
        done += bytes
        onProgress?.({ sessionID: s.sessionID, sessionsDone: index, sessionsTotal: sessions.length, eventBytesDone: done, eventBytesTotal: total })
      }
      const outcome = answer.status === 'stopped' ? undefined : await compactSession(deps, s.target, { ...s, index, live, planner }, input.dryRun, progress, options)
      answer.eventBytesBefore += s.bytes
      const summary = outcome && 'summary' in outcome ? outcome.summary : undefined
      answer.eventBytesAfter += summary?.eventBytesAfter ?? s.bytes
      if (summary) {
        answer.perSession.push(summary)
        answer.eventsRedacted += summary.eventsRedacted
        if (summary.eventsRedacted > 0) answer.sessions++
      }
      if (outcome?.kind === 'refused') answer.refused.push({ sessionID: s.sessionID, reason: outcome.reason } satisfies Refusal)
      if (outcome?.kind === 'stop') Object.assign(answer, { status: 'stopped', detail: outcome.reason })
    }
  } finally {
    await planner.close()
  }
  onProgress?.({ sessionID: '', sessionsDone: sessions.length, sessionsTotal: sessions.length, eventBytesDone: total, eventBytesTotal: total })
  return answer
}

/**
 * `storage.compact`: a dry run answers at once; a write takes the process's one compaction slot, so
 * `storage.compactStatus` shows its progress and `storage.compactStop` ends it after a batch.
 */
export async function runCompaction(deps: CompactDeps & Pick<AppDeps, 'compaction' | 'clock' | 'heap'>, input: CompactInput): Promise<CompactAnswer> {
  if (input.dryRun) {
    try {
      return await compactEventLog(deps, input)
    } finally {
      // A write's runner does this when it settles; a dry run plans every session all the same.
      deps.heap.afterJob()
    }
  }
  const running = deps.compaction.run({ now: () => deps.clock.now(), initial: { progress: null, stopping: false } }, ({ report, signal }) =>
    compactEventLog(deps, input, (progress) => report({ progress }), { signal }))
  if (running) return running
  return { status: 'refused', dryRun: false, sessions: 0, eventsRedacted: 0, eventBytesBefore: 0, eventBytesAfter: 0, refused: [], perSession: [], detail: 'A compaction is already running; wait for it or stop it.', notes: [] }
}

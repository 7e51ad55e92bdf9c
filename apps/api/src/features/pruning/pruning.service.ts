import { LIMITS, overEditLimit, previewPrune, type PrunablePart, type PruneReceipt } from '@loupe/domain'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { nodeDigest, sha256Text } from '../../lib/hash.js'
import { checkMedia, checkWriteTarget, fenceSession } from './fences.js'
import { checkLiveSession, type LiveLock, type LiveVerdict } from '../../opencode/live-guard.js'
import { blocked, pruneContext, type Blocked, type PruneContext } from './prune-context.js'
import { runPruneTransaction, type PruneRequest } from './prune-transaction.js'
import { foldWal } from './pruning-runtime.js'
import type { PruningDeps } from './pruning.deps.js'
import type { PreviewInput, PruneBatchInput, PruneInput, SessionPlanInput } from './pruning.schema.js'

export { planMessages, sessionPlan, type MessagePlan, type SessionPlan } from './plan.service.js'
export type { Blocked } from './prune-context.js'

/** A refusal because OpenCode may be running the session: why, and what to do, typed for the UI. */
export type LiveBlocked = Blocked & { lock: LiveLock }
export type PreviewResult =
  | { status: 'preview'; revision: string; liveMutation: boolean; live: LiveVerdict; parts: PrunablePart[]; copies: { sessionID: string; title: string | null }[]; compactionCopies: number; storageOnly: boolean }
  | Blocked
  | LiveBlocked
export type PruneResult = PruneReceipt | Blocked | LiveBlocked

export const liveBlocked = (lock: LiveLock): LiveBlocked => ({ status: 'blocked', reason: 'maintenance_required', detail: `${lock.detail} ${lock.fix}`, lock })

/**
 * What a prune of this message would remove: its technical parts with bytes and estimated tokens,
 * the revision a prune must quote, and the other sessions (forks) that keep a copy of it. Read-only.
 * `liveMutation` says the write goes to the live file OpenCode uses (always, in Loupe); `live` is
 * what the live guard found (checkLive).
 */
export async function previewMessage(deps: PruningDeps, input: PreviewInput): Promise<PreviewResult> {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) return ctx
  const live = await checkLiveSession(deps, ctx)
  if (live.state === 'locked') return liveBlocked(live.lock)
  const { db } = deps.opencode
  return db.read((): PreviewResult => {
    const target = checkWriteTarget(deps.opencode, ctx.store.prune)
    if (target) return blocked(target)
    const fence = fenceSession(ctx.store.prune.sessionFence(db, ctx.session.id))
    if (fence) return blocked(fence)
    const bytes = ctx.store.prune.storedBytes(db, ctx.session.id, input.messageID)
    if (bytes === undefined) return blocked({ reason: 'not_deletable', detail: 'This message is not in the session.' })
    if (bytes > LIMITS.messageStoredBytes) return blocked({ reason: 'not_deletable', detail: overEditLimit(bytes) })
    const [native] = ctx.store.loadMessages(db, ctx.session.id, [input.messageID], { canonical: true })
    if (!native) return blocked({ reason: 'not_deletable', detail: 'This message is not in the session.' })
    const media = checkMedia(ctx.store.prune, native)
    if (media) return blocked(media)
    const preview = previewPrune(native, { digest: nodeDigest, estimateTokens: deps.tokenizer.estimatePartTokens })
    if (!preview.ok) return blocked(preview.error)
    // A prune here leaves these copies (forks); the preview names them rather than editing them unasked.
    const copies = ctx.store.prune.copiesElsewhere(db, ctx.session.id, input.messageID)
    // Compaction rows quoting this output keep it in the file; Loupe does not rewrite summaries.
    const compactionCopies = ctx.store.prune.compactionCopies(db, ctx.session.id, input.messageID)
    // Before the latest completed compaction the model reads none of it: its tokens free storage, not context (as in sessionPlan).
    const storageOnly = ctx.store.prune.storageOnlyMessages(db, ctx.session.id).has(input.messageID)
    return { status: 'preview', revision: preview.value.revision, liveMutation: true, live, parts: preview.value.parts, copies, compactionCopies, storageOnly }
  })
}

/**
 * Whether OpenCode may be running this session now, for the session page to say before anyone
 * selects: the live guard's verdict, or the refusal for storage Loupe cannot read.
 */
export async function liveState(deps: PruningDeps, input: SessionPlanInput): Promise<LiveVerdict | Blocked> {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) return ctx
  return checkLiveSession(deps, ctx)
}

/** Publish after commit, and again for an identical retry: every open tab re-reads the message. */
function settle(deps: PruningDeps, ctx: PruneContext, outcome: ReturnType<typeof runPruneTransaction>): PruneResult {
  if (!outcome.ok) return blocked(outcome.block)
  const { receipt } = outcome
  deps.events.emit('pruned', { sessionID: ctx.session.id, messageID: receipt.messageID, revision: receipt.revision, storage: ctx.session.storage })
  if (outcome.removedImages.length) deps.events.emit('imagesPruned', { digests: outcome.removedImages.map(sha256Text) })
  return receipt
}


/** Remove the selected technical parts of one message, if it is still exactly what was previewed. */
export async function pruneMessage(deps: PruningDeps, input: PruneInput): Promise<PruneResult> {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) return ctx
  const result = pruneMessageWith(deps, ctx, await checkLiveSession(deps, ctx), input)
  setImmediate(() => foldWal(deps))
  return result
}

/** pruneMessage on a live verdict the caller asked for just before (a DB-wide clean-up checks many sessions at once). */
export function pruneMessageWith(deps: PruningDeps, ctx: PruneContext, live: LiveVerdict, input: Pick<PruneInput, 'messageID' | 'revision' | 'indexes'>): PruneResult {
  if (live.state === 'locked') return liveBlocked(live.lock)
  const request: PruneRequest = { messageID: input.messageID, revision: input.revision, selection: { kind: 'indexes', indexes: input.indexes } }
  return settle(deps, ctx, runPruneTransaction(deps, ctx, request))
}

/**
 * Up to 16 messages, each its own "all technical parts" transaction keyed by the revision the
 * person saw: a message that changed answers `conflict`, never a wider deletion than was shown.
 */
export async function pruneBatch(deps: PruningDeps, input: PruneBatchInput): Promise<{ results: { messageID: string; result: PruneResult }[] }> {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) return { results: input.candidates.map((c) => ({ messageID: c.messageID, result: ctx })) }
  // Asked once per batch, before its first transaction; the UI sends at most 16 messages a batch.
  const results = await pruneBatchWith(deps, ctx, await checkLiveSession(deps, ctx), input.candidates)
  foldWal(deps)
  return { results }
}

/** pruneBatch's transactions on a live verdict the caller asked for just before; the caller folds the WAL. */
export async function pruneBatchWith(deps: PruningDeps, ctx: PruneContext, live: LiveVerdict, candidates: PruneBatchInput['candidates']): Promise<{ messageID: string; result: PruneResult }[]> {
  if (live.state === 'locked') return candidates.map((c) => ({ messageID: c.messageID, result: liveBlocked(live.lock) }))
  const results: { messageID: string; result: PruneResult }[] = []
  for (const candidate of candidates) {
    const request: PruneRequest = { messageID: candidate.messageID, revision: candidate.revision, selection: { kind: 'allTechnical' } }
    results.push({ messageID: candidate.messageID, result: settle(deps, ctx, runPruneTransaction(deps, ctx, request)) })
    // Between transactions (never inside one), let other requests run.
    await yieldToLoop()
  }
  return results
}

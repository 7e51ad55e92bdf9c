import { LIMITS, overEditLimit, previewPrune, type PrunablePart, type PruneBlock, type PruneReceipt } from '@loupe/domain'
import { estimatePartTokens } from '@loupe/domain/tokens'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { nodeDigest, sha256Text } from '../../lib/hash.js'
import { checkMedia, checkWriteTarget, fenceSession } from './fences.js'
import { sessionServerState, type ServerState } from './opencode-status.js'
import { blocked, pruneContext, type Blocked, type PruneContext } from './prune-context.js'
import { runPruneTransaction, type PruneRequest } from './prune-transaction.js'
import { foldWal } from './pruning-runtime.js'
import type { PruningDeps } from './pruning.deps.js'
import type { PreviewInput, PruneBatchInput, PruneInput } from './pruning.schema.js'

export { planMessages, sessionPlan, type MessagePlan, type SessionPlan } from './plan.service.js'
export type { Blocked } from './prune-context.js'

export type PreviewResult =
  | { status: 'preview'; revision: string; liveMutation: boolean; opencode: ServerState; parts: PrunablePart[]; copies: { sessionID: string; title: string | null }[]; compactionCopies: number }
  | Blocked
export type PruneResult = PruneReceipt | Blocked

const SERVER_BUSY: PruneBlock = { reason: 'maintenance_required', detail: 'OpenCode is working in this session right now; try again when it is idle.' }

/**
 * What a prune of this message would remove: its technical parts with bytes and estimated tokens,
 * the revision a prune must quote, and the other sessions (forks) that keep a copy of it. Read-only. `liveMutation` says the write goes to the live
 * file OpenCode uses (always, in Loupe); `opencode` is what a configured OpenCode server reported.
 */
export async function previewMessage(deps: PruningDeps, input: PreviewInput): Promise<PreviewResult> {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) return ctx
  const opencode = await sessionServerState(deps.config, ctx.session)
  const { db } = deps.opencode
  return db.read((): PreviewResult => {
    const target = checkWriteTarget(deps.opencode, ctx.store.prune)
    if (target) return blocked(target)
    const fence = opencode === 'busy' ? SERVER_BUSY : fenceSession(ctx.store.prune.sessionFence(db, ctx.session.id))
    if (fence) return blocked(fence)
    const bytes = ctx.store.prune.storedBytes(db, ctx.session.id, input.messageID)
    if (bytes === undefined) return blocked({ reason: 'not_deletable', detail: 'This message is not in the session.' })
    if (bytes > LIMITS.messageStoredBytes) return blocked({ reason: 'not_deletable', detail: overEditLimit(bytes) })
    const [native] = ctx.store.loadMessages(db, ctx.session.id, [input.messageID], { canonical: true })
    if (!native) return blocked({ reason: 'not_deletable', detail: 'This message is not in the session.' })
    const media = checkMedia(ctx.store.prune, native)
    if (media) return blocked(media)
    const preview = previewPrune(native, { digest: nodeDigest, estimateTokens: estimatePartTokens })
    if (!preview.ok) return blocked(preview.error)
    // A prune here leaves these copies (forks); the preview names them rather than editing them unasked.
    const copies = ctx.store.prune.copiesElsewhere(db, ctx.session.id, input.messageID)
    // Compaction rows quoting this output keep it in the file; Loupe does not rewrite summaries.
    const compactionCopies = ctx.store.prune.compactionCopies(db, ctx.session.id, input.messageID)
    return { status: 'preview', revision: preview.value.revision, liveMutation: true, opencode, parts: preview.value.parts, copies, compactionCopies }
  })
}

/** Publish after commit, and again for an identical retry: every open tab re-reads the message. */
function settle(deps: PruningDeps, ctx: PruneContext, outcome: ReturnType<typeof runPruneTransaction>): PruneResult {
  if (!outcome.ok) return blocked(outcome.block)
  const { receipt } = outcome
  deps.events.emit('pruned', { sessionID: ctx.session.id, messageID: receipt.messageID, revision: receipt.revision, storage: ctx.session.storage })
  if (outcome.removedImages.length) deps.events.emit('imagesPruned', { digests: outcome.removedImages.map(sha256Text) })
  return receipt
}

async function serverAllows(deps: PruningDeps, ctx: PruneContext): Promise<boolean> {
  return (await sessionServerState(deps.config, ctx.session)) !== 'busy'
}

/** Remove the selected technical parts of one message, if it is still exactly what was previewed. */
export async function pruneMessage(deps: PruningDeps, input: PruneInput): Promise<PruneResult> {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) return ctx
  if (!(await serverAllows(deps, ctx))) return blocked(SERVER_BUSY)
  const request: PruneRequest = { messageID: input.messageID, revision: input.revision, selection: { kind: 'indexes', indexes: input.indexes } }
  const result = settle(deps, ctx, runPruneTransaction(deps, ctx, request))
  setImmediate(() => foldWal(deps))
  return result
}

/**
 * Up to 16 messages, each its own "all technical parts" transaction keyed by the revision the
 * person saw: a message that changed answers `conflict`, never a wider deletion than was shown.
 */
export async function pruneBatch(deps: PruningDeps, input: PruneBatchInput): Promise<{ results: { messageID: string; result: PruneResult }[] }> {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) return { results: input.candidates.map((c) => ({ messageID: c.messageID, result: ctx })) }
  const busy = !(await serverAllows(deps, ctx))
  const results: { messageID: string; result: PruneResult }[] = []
  for (const candidate of input.candidates) {
    if (busy) {
      results.push({ messageID: candidate.messageID, result: blocked(SERVER_BUSY) })
      continue
    }
    const request: PruneRequest = { messageID: candidate.messageID, revision: candidate.revision, selection: { kind: 'allTechnical' } }
    results.push({ messageID: candidate.messageID, result: settle(deps, ctx, runPruneTransaction(deps, ctx, request)) })
    // Between transactions (never inside one), let other requests run.
    await yieldToLoop()
  }
  foldWal(deps)
  return { results }
}

import { computeRevision, LIMITS, messageContent, resolveSelectors, type PartSelector, type StorageGeneration } from '@loupe/domain'
import type { Api, RouterOutputs } from '../../lib/trpc'

export interface PruneTarget {
  sessionID: string
  storage: StorageGeneration
}

export type SessionPlan = RouterOutputs['pruning']['sessionPlan']
type Preview = RouterOutputs['pruning']['preview']
export type PreviewPart = Extract<Preview, { status: 'preview' }>['parts'][number]
export type PruneResult = RouterOutputs['pruning']['prune']

/** One technical part the person ticked, named by identity (never by position alone). */
export interface SelectedPart {
  messageID: string
  /** The transcript's address of the item (1.x part id, 2.x content index), for the checkbox. */
  ref: string
  selector: PartSelector
  kind: 'tool' | 'reasoning'
  label: string
  bytes: number
}

/** A message as it will be pruned: what goes (from the server's preview) and the revision it quoted. */
export interface ReviewMessage {
  messageID: string
  revision: string
  /** Indexes to remove, or every technical part (`pruneBatch`). */
  indexes: number[] | 'all'
  parts: PreviewPart[]
  /** Before the latest completed compaction: its tokens free storage, not the model's context. */
  storageOnly: boolean
  /** Compaction summaries quoting this message's outputs (from a preview; a session plan does not count them). */
  compactionCopies?: number
  /** Set when the whole-session plan supplied the counts instead of a preview. */
  counts?: { tools: number; reasoning: number; bytes: number; tokens: number; toolNames: string[]; completedAt: number | null }
}

export interface Refusal {
  messageID: string
  reason: string
  detail: string
}

/** A fork's verbatim copies of messages in a whole-session review, planned in the fork itself. */
export interface ForkReview {
  sessionID: string
  title: string | null
  messages: ReviewMessage[]
  bytes: number
}

export interface Review {
  scope: 'selection' | 'message' | 'session'
  messages: ReviewMessage[]
  refused: Refusal[]
  /** Whole-session reviews of 2.x sessions: forks keeping copies, pruned only when the person includes them. */
  forks?: ForkReview[]
}

export interface ReviewTotals {
  messages: number
  tools: number
  reasoning: number
  bytes: number
  tokens: number
  /** `tokens` = `contextTokens` + `storageOnlyTokens`, as the api splits them. */
  contextTokens: number
  storageOnlyTokens: number
}

export function reviewTotals(review: Review): ReviewTotals {
  const totals: ReviewTotals = { messages: review.messages.length, tools: 0, reasoning: 0, bytes: 0, tokens: 0, contextTokens: 0, storageOnlyTokens: 0 }
  for (const m of review.messages) {
    const before = totals.tokens
    if (m.counts) {
      totals.tools += m.counts.tools
      totals.reasoning += m.counts.reasoning
      totals.bytes += m.counts.bytes
      totals.tokens += m.counts.tokens
    } else {
      for (const p of m.parts) {
        if (p.type === 'tool') totals.tools++
        else totals.reasoning++
        totals.bytes += p.bytes
        totals.tokens += p.tokens
      }
    }
    if (m.storageOnly) totals.storageOnlyTokens += totals.tokens - before
    else totals.contextTokens += totals.tokens - before
  }
  return totals
}

const refusalOf = (messageID: string, reason: string, detail: string): Refusal => ({ messageID, reason, detail })

/**
 * Re-read each selected message in its native form, find the selected parts again by identity
 * (tools by id, reasoning by its unique text and times; ambiguity refuses), and ask the server
 * what would go. The client's revision of what it resolved against must equal the server's.
 */
export async function reviewSelection(api: Api, target: PruneTarget, selection: readonly SelectedPart[]): Promise<Review> {
  const byMessage = new Map<string, SelectedPart[]>()
  for (const part of selection) byMessage.set(part.messageID, [...(byMessage.get(part.messageID) ?? []), part])
  const review: Review = { scope: 'selection', messages: [], refused: [] }
  for (const [messageID, parts] of byMessage) {
    const native = await api.sessions.message.query({ ...target, messageID })
    const resolved = resolveSelectors(native, parts.map((p) => p.selector))
    if (!resolved.ok) {
      review.refused.push(refusalOf(messageID, resolved.error.reason, resolved.error.detail))
      continue
    }
    const preview = await api.pruning.preview.query({ ...target, messageID })
    if (preview.status === 'blocked') {
      review.refused.push(refusalOf(messageID, preview.reason, preview.detail))
      continue
    }
    if (preview.revision !== computeRevision(messageContent(native))) {
      review.refused.push(refusalOf(messageID, 'conflict', 'The message changed while you reviewed it; select again.'))
      continue
    }
    const chosen = preview.parts.filter((p) => resolved.value.includes(p.index))
    if (chosen.length !== resolved.value.length) {
      review.refused.push(refusalOf(messageID, 'not_deletable', 'A selected part cannot be removed (it is not a finished tool call or reasoning).'))
      continue
    }
    review.messages.push({ messageID, revision: preview.revision, indexes: resolved.value, parts: chosen, storageOnly: preview.storageOnly, compactionCopies: preview.compactionCopies })
  }
  return review
}

/** Every technical part of one message, as the server previews it now. */
export async function reviewMessage(api: Api, target: PruneTarget, messageID: string): Promise<Review> {
  const preview = await api.pruning.preview.query({ ...target, messageID })
  if (preview.status === 'blocked') return { scope: 'message', messages: [], refused: [refusalOf(messageID, preview.reason, preview.detail)] }
  if (preview.parts.length === 0) return { scope: 'message', messages: [], refused: [refusalOf(messageID, 'not_deletable', 'Nothing technical is left in this message.')] }
  return { scope: 'message', messages: [{ messageID, revision: preview.revision, indexes: 'all', parts: preview.parts, storageOnly: preview.storageOnly, compactionCopies: preview.compactionCopies }], refused: [] }
}

type Candidate = Omit<SessionPlan['candidates'][number], 'status'>

/** A candidate (a session plan's whole message, or a search clean-up's matching parts) as a review row, by its revision. */
export function candidateMessage(c: Candidate): ReviewMessage {
  return {
    messageID: c.messageID,
    revision: c.revision,
    indexes: c.indexes ?? 'all',
    parts: [],
    storageOnly: c.storageOnly,
    counts: { tools: c.toolCount, reasoning: c.reasoningCount, bytes: c.bytes, tokens: c.tokens, toolNames: c.tools, completedAt: c.completedAt },
  }
}

/** The whole session from its plan: each candidate by the revision the plan read. */
export function reviewSession(plan: SessionPlan): Review {
  return {
    scope: 'session',
    messages: plan.candidates.map(candidateMessage),
    refused: plan.blocked.map((b) => refusalOf(b.messageID, b.reason, b.detail)),
    forks: plan.forks.map((f) => ({ sessionID: f.sessionID, title: f.title, messages: f.candidates.map(candidateMessage), bytes: f.bytes })),
  }
}

export interface RunProgress {
  done: number
  total: number
  pruned: number
  removedParts: number
  refused: Refusal[]
  /** Messages that committed, for the transcript to re-read. */
  committed: string[]
}

/**
 * Carry out a review: messages with chosen parts one per request (`prune`, by indexes: a
 * selection, a search's matches), whole messages `LIMITS.pruneBatchMax` per `pruneBatch`. Cancel stops between
 * requests; every request is its own set of transactions, so what ran stays done and nothing is
 * half-done.
 */
export async function runReview(api: Api, target: PruneTarget, review: Review, onProgress: (p: RunProgress) => void, signal: AbortSignal, options: { includeForks?: boolean } = {}): Promise<RunProgress> {
  const forks = options.includeForks ? review.forks ?? [] : []
  const progress: RunProgress = { done: 0, total: review.messages.length + forks.reduce((n, f) => n + f.messages.length, 0), pruned: 0, removedParts: 0, refused: [], committed: [] }
  // `committed` names this transcript's messages only; a fork's are re-read when its page opens.
  const settle = (messageID: string, result: PruneResult, here = true) => {
    progress.done++
    if (result.status === 'pruned') {
      progress.pruned++
      progress.removedParts += result.removedCount
      if (here) progress.committed.push(messageID)
    } else progress.refused.push(refusalOf(messageID, result.reason, result.detail))
  }
  const whole = review.messages.filter((m) => m.indexes === 'all')
  const partial = review.messages.filter((m) => m.indexes !== 'all')
  for (const m of partial) {
    if (signal.aborted) break
    settle(m.messageID, await api.pruning.prune.mutate({ ...target, messageID: m.messageID, revision: m.revision, indexes: m.indexes as number[] }))
    onProgress({ ...progress })
  }
  for (let i = 0; i < whole.length && !signal.aborted; i += LIMITS.pruneBatchMax) {
    const candidates = whole.slice(i, i + LIMITS.pruneBatchMax).map((m) => ({ messageID: m.messageID, revision: m.revision }))
    const { results } = await api.pruning.pruneBatch.mutate({ ...target, candidates })
    for (const r of results) settle(r.messageID, r.result)
    onProgress({ ...progress })
  }
  // Each fork is its own session: its own batches, live check, revisions and receipts.
  for (const fork of forks) {
    for (let i = 0; i < fork.messages.length && !signal.aborted; i += LIMITS.pruneBatchMax) {
      const candidates = fork.messages.slice(i, i + LIMITS.pruneBatchMax).map((m) => ({ messageID: m.messageID, revision: m.revision }))
      const { results } = await api.pruning.pruneBatch.mutate({ sessionID: fork.sessionID, storage: target.storage, candidates })
      for (const r of results) settle(r.messageID, r.result, false)
      onProgress({ ...progress })
    }
  }
  return progress
}

/** Follow every commit (here or in another tab) while mounted; returns the unsubscribe. */
export function followPruned(api: Api, onPruned: (event: { sessionID: string; messageID: string; revision: string; storage: StorageGeneration }) => void): () => void {
  const subscription = api.events.pruned.subscribe(undefined, { onData: onPruned, onError: () => {} })
  return () => subscription.unsubscribe()
}

import type { Revision, StorageGeneration } from './ids.js'
import { LIMITS, overEditLimit } from './limits.js'
import { messageCompletedAt, messageContent, messageRole, type CanonicalNativeMessage } from './native.js'
import { classifyPart } from './parts.js'
import { err, ok, type Result } from './result.js'
import { canonicalPieces, piecesBytes, revisionOfPieces, textDigest, type CanonicalPieces, type TextDigest } from './revision.js'

/** The closed set of refusals of preview, prune and pruneBatch (SESSION_PRUNING.md). */
export const PRUNE_BLOCK_REASONS = ['unavailable', 'maintenance_required', 'conflict', 'not_deletable', 'unsupported_storage'] as const
export type PruneBlockReason = (typeof PRUNE_BLOCK_REASONS)[number]

/** A refusal: the contract's reason plus a sentence for people (never content). */
export interface PruneBlock {
  reason: PruneBlockReason
  detail: string
}

/** One technical part a person may remove, as the preview shows it. */
export interface PrunablePart {
  /** Position in the message content (1.x parts in id order, 2.x `data.content`). */
  index: number
  type: 'tool' | 'reasoning'
  /** UTF-8 bytes of the part serialized as JSON in its native read form. */
  bytes: number
  /** Estimated model tokens of what the part sends (0 when no estimator was given). */
  tokens: number
  tool?: string
  status?: string
  title?: string
}

export interface PrunePreview {
  revision: Revision
  parts: PrunablePart[]
  /** Length of the content array the indexes point into. */
  contentLength: number
}

/** What one prune removes: indexes, the parts themselves (native form) and the revision that remains. */
export interface PrunePlan {
  revision: Revision
  nextRevision: Revision
  removed: number[]
  kept: number[]
  removedParts: unknown[]
  survivors: unknown[]
}

export type PruneSelection = { kind: 'indexes'; indexes: readonly number[] } | { kind: 'allTechnical' }

export interface PlanOptions {
  /** How canonical pieces are hashed and measured (the server passes node:crypto's). */
  digest?: TextDigest
  /** Token estimate of one part; the server passes `estimatePartTokens` from '@loupe/domain/tokens'. */
  estimateTokens?: (part: unknown, storage: StorageGeneration) => number
}

const block = (reason: PruneBlockReason, detail: string) => err<PruneBlock>({ reason, detail })

/**
 * Indexes as the contract takes them: 1–100,001 entries, each an integer 0–100,000, no repeats.
 * Returns them sorted ascending (the order receipts hash them in).
 */
export function checkIndexes(indexes: readonly number[]): Result<number[], PruneBlock> {
  if (indexes.length < 1 || indexes.length > LIMITS.pruneIndexesMax) {
    return block('not_deletable', `Select between 1 and ${LIMITS.pruneIndexesMax} parts.`)
  }
  for (const i of indexes) {
    if (!Number.isInteger(i) || i < 0 || i > LIMITS.pruneIndexMax) return block('not_deletable', `Part index ${i} is out of range.`)
  }
  const sorted = [...indexes].sort((a, b) => a - b)
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) return block('not_deletable', `Part index ${sorted[i]} is selected twice.`)
  }
  return ok(sorted)
}

/**
 * Which parts of a finished assistant message may go: completed or errored tools and reasoning.
 * Anything unfinished, too large, or of a kind Loupe does not know blocks the whole message.
 */
export function previewPrune(message: CanonicalNativeMessage, options: PlanOptions = {}): Result<PrunePreview, PruneBlock> {
  const analyzed = analyze(message, options)
  if (!analyzed.ok) return analyzed
  const { encoded: _encoded, ...preview } = analyzed.value
  return ok(preview)
}

/**
 * The preview plus each item's canonical pieces: one serialization serves bytes, revision and
 * survivors. Pieces the store read off the stored text (`canonicalItems`) are used as they are.
 */
function analyze(message: CanonicalNativeMessage, options: PlanOptions): Result<PrunePreview & { encoded: CanonicalPieces[] }, PruneBlock> {
  if (message.omitted) return block('not_deletable', overEditLimit(message.omitted.bytes))
  if (messageRole(message) !== 'assistant') return block('not_deletable', 'Only assistant messages have technical parts to prune.')
  if (messageCompletedAt(message) === undefined) return block('not_deletable', 'This message is not finished yet.')
  if (message.storage === 'v2' && !Array.isArray(message.message.content)) return block('not_deletable', 'This message has no content list.')
  const content = messageContent(message)
  if (content.length > LIMITS.pruneIndexesMax) return block('not_deletable', 'This message has more parts than Loupe edits.')
  const digest = options.digest ?? textDigest
  const known = message.canonicalItems?.length === content.length ? message.canonicalItems : undefined
  const parts: PrunablePart[] = []
  const encoded: CanonicalPieces[] = []
  let serialized = 2
  for (let index = 0; index < content.length; index++) {
    const part = content[index]
    const info = classifyPart(part, message.storage)
    if (!info.known) return block('not_deletable', `Part ${index} is of a kind Loupe does not know (${info.type || 'no type'}).`)
    if (info.kind === 'tool' && !info.prunable) return block('not_deletable', `Tool ${info.tool ?? ''} is still ${info.status ?? 'running'}.`)
    // Canonical JSON differs from the stored form only in key order: the same byte count.
    const item = known?.[index] ?? canonicalPieces(part)
    encoded.push(item)
    const bytes = piecesBytes(item, digest)
    serialized += bytes + 1
    if (serialized > LIMITS.messageSerializedBytes) return block('not_deletable', 'This message is over the 16 MiB Loupe edits.')
    if (!info.prunable) continue
    parts.push({
      index,
      type: info.kind === 'tool' ? 'tool' : 'reasoning',
      bytes,
      tokens: options.estimateTokens ? options.estimateTokens(part, message.storage) : 0,
      ...(info.tool !== undefined ? { tool: info.tool } : {}),
      ...(info.status !== undefined ? { status: info.status } : {}),
      ...(info.title !== undefined ? { title: info.title } : {}),
    })
  }
  return ok({ revision: revisionOfPieces(encoded, digest), parts, contentLength: content.length, encoded })
}

/**
 * The removal a request asks for, checked against the message as stored now: the revision must
 * match (else `conflict`), and every index must name a technical part (else `not_deletable`).
 * `allTechnical` takes every technical part; none at all is `not_deletable`.
 */
export function planPrune(
  message: CanonicalNativeMessage,
  request: { revision: string; selection: PruneSelection },
  options: PlanOptions = {},
): Result<PrunePlan, PruneBlock> {
  const preview = analyze(message, { ...options, estimateTokens: undefined })
  if (!preview.ok) return preview
  const { revision, parts, encoded } = preview.value
  if (revision !== request.revision) return block('conflict', 'The message changed since it was previewed; look again.')
  let removed: number[]
  if (request.selection.kind === 'allTechnical') {
    removed = parts.map((p) => p.index)
    if (removed.length === 0) return block('not_deletable', 'This message has no technical parts left.')
  } else {
    const checked = checkIndexes(request.selection.indexes)
    if (!checked.ok) return checked
    const technical = new Set(parts.map((p) => p.index))
    const bad = checked.value.find((i) => !technical.has(i))
    if (bad !== undefined) {
      return block('not_deletable', bad >= preview.value.contentLength ? `Part ${bad} does not exist.` : `Part ${bad} is not a tool call or reasoning.`)
    }
    removed = checked.value
  }
  const content = messageContent(message)
  const gone = new Set(removed)
  const kept: number[] = []
  const survivors: unknown[] = []
  const removedParts: unknown[] = []
  content.forEach((part, i) => {
    if (gone.has(i)) removedParts.push(part)
    else {
      kept.push(i)
      survivors.push(part)
    }
  })
  return ok({ revision, nextRevision: revisionOfPieces(kept.map((i) => encoded[i]!), options.digest ?? textDigest), removed, kept, removedParts, survivors })
}

/** Totals over previews, for "what this would save". */
export function sumPrunable(parts: readonly PrunablePart[]) {
  let bytes = 0
  let tokens = 0
  let tools = 0
  let reasoning = 0
  for (const p of parts) {
    bytes += p.bytes
    tokens += p.tokens
    if (p.type === 'tool') tools++
    else reasoning++
  }
  return { bytes, tokens, tools, reasoning, count: tools + reasoning }
}

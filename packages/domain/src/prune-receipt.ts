import type { StorageGeneration } from './ids.js'
import { canonicalJson, sha256Hex, type Sha256Hex } from './revision.js'

/** A prune request as its receipt is keyed: indexes sorted, or the bulk "all technical" form. */
export type ReceiptRequest =
  | { storage: StorageGeneration; sessionID: string; messageID: string; revision: string; indexes: readonly number[] }
  | { storage: StorageGeneration; sessionID: string; messageID: string; revision: string; allTechnical: true }

const encoder = new TextEncoder()

/**
 * The idempotency key of a prune: SHA-256 of the canonical JSON of the request with its indexes
 * sorted ascending. The key covers the original revision, so a retry can never remove the next block.
 */
export function pruneReceiptKey(request: ReceiptRequest, hash: Sha256Hex = sha256Hex): string {
  const normalized = 'indexes' in request ? { ...request, indexes: [...request.indexes].sort((a, b) => a - b) } : request
  return hash(encoder.encode(canonicalJson(normalized)))
}

/** What a receipt stores and an identical retry returns: ids, hashes and counts only. */
export interface PruneReceipt {
  status: 'pruned'
  messageID: string
  revision: string
  removedCount: number
}

/** A stored receipt, parsed defensively: anything else is not ours. */
export function parseReceipt(text: string, messageID: string): PruneReceipt | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const r = value as PruneReceipt
  if (typeof r !== 'object' || r === null || r.status !== 'pruned' || r.messageID !== messageID) return undefined
  if (typeof r.revision !== 'string' || !Number.isInteger(r.removedCount) || r.removedCount < 1) return undefined
  return { status: 'pruned', messageID: r.messageID, revision: r.revision, removedCount: r.removedCount }
}

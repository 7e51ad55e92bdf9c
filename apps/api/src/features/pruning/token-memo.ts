import { createHash } from 'node:crypto'
import type { StorageGeneration } from '@loupe/domain'
import { modelTextOfPart, type TokenEstimator } from '@loupe/domain/tokens'

/** Shorter texts are tokenized again each time: that costs less than remembering them. */
const MEMO_MIN_CHARS = 128
/** About 100 bytes an entry: the memo stays near 20 MB however many plans run. */
const MEMO_ENTRIES = 200_000

/**
 * Token estimates of long part texts by the SHA-256 of the text: exact by construction, so a plan
 * made again (apply re-plans to compare fingerprints; the Overview and the Storage page ask for the
 * same rule) hashes its tool outputs instead of tokenizing them, which is most of a plan's CPU.
 */
export interface TokenMemo {
  readonly counts: Map<string, number>
}

export const createTokenMemo = (): TokenMemo => ({ counts: new Map() })

/** `tokenizer.estimatePartTokens`, remembered for long texts. */
export function memoPartTokens(memo: TokenMemo, tokenizer: TokenEstimator, part: unknown, storage: StorageGeneration): number {
  const text = modelTextOfPart(part, storage)
  if (text.length < MEMO_MIN_CHARS) return tokenizer.estimateTokens(text)
  const key = createHash('sha256').update(text).digest('base64')
  const known = memo.counts.get(key)
  if (known !== undefined) return known
  const tokens = tokenizer.estimateTokens(text)
  remember(memo, key, tokens)
  return tokens
}

function remember(memo: TokenMemo, key: string, tokens: number): void {
  if (memo.counts.size >= MEMO_ENTRIES) {
    const oldest = memo.counts.keys().next()
    if (!oldest.done) memo.counts.delete(oldest.value)
  }
  memo.counts.set(key, tokens)
}

/** Take in what a plan's worker thread counted (it started from a copy of `memo`). */
export function mergeTokenMemo(memo: TokenMemo, counted: ReadonlyMap<string, number>): void {
  for (const [key, tokens] of counted) if (!memo.counts.has(key)) remember(memo, key, tokens)
}

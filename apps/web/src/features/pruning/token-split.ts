import { formatCount } from '../../lib/format'

/** Estimated tokens a prune frees, split by whether the model still reads them (issue 26). */
export interface TokenSplit {
  /** After the latest completed compaction: the next turn sends them to the model. */
  contextTokens: number
  /** Before it: only the file holds them, so removing them saves disk, not context. */
  storageOnlyTokens: number
}

/**
 * The split in a person's words: "~12k tokens of context · ~40k stored only". Without a
 * compaction everything is context and the line says just that; nothing at all reads "no tokens".
 */
export function describeTokenSplit(split: TokenSplit): string {
  const context = `~${formatCount(split.contextTokens)} tokens of context`
  if (split.storageOnlyTokens <= 0) return split.contextTokens > 0 ? context : 'no tokens'
  const stored = `~${formatCount(split.storageOnlyTokens)} stored only`
  return split.contextTokens > 0 ? `${context} · ${stored}` : `~${formatCount(split.storageOnlyTokens)} tokens, stored only`
}

/** What the split means, for a tooltip beside it. */
export const TOKEN_SPLIT_HINT =
  'Tokens are an o200k estimate. "Of context": the model reads them on the next turn, so removing them makes its context smaller. ' +
  '"Stored only": they come before the latest completed compaction, which the model no longer reads; removing them frees space in the file only.'

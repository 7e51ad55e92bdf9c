import { createRequire } from 'node:module'
import { createTokenEstimator, type CountTokens, type TokenEstimator } from '@loupe/domain/tokens'

/**
 * The o200k_base token estimator, loaded on its first use: gpt-tokenizer's tables are tens of MB
 * of the process, and only previews, the Bytes tab and clean-up plans count tokens. Loaded with a
 * synchronous require (its CommonJS build) because every caller counts inside a synchronous read.
 */
export function createLazyTokenizer(): TokenEstimator {
  let estimator: TokenEstimator | null = null
  const get = () => {
    if (!estimator) {
      const load = createRequire(import.meta.url)
      const { countTokens } = load('gpt-tokenizer/encoding/o200k_base') as { countTokens: CountTokens }
      estimator = createTokenEstimator(countTokens)
    }
    return estimator
  }
  return {
    estimateTokens: (text) => get().estimateTokens(text),
    estimatePartTokens: (part, storage) => get().estimatePartTokens(part, storage),
  }
}

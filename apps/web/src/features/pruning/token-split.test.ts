import { describe, expect, it } from 'vitest'
import { describeTokenSplit } from './token-split'

describe('describeTokenSplit', () => {
  it.each([
    [{ contextTokens: 12_300, storageOnlyTokens: 40_000 }, '~12k tokens of context · ~40k stored only'],
    [{ contextTokens: 850, storageOnlyTokens: 0 }, '~850 tokens of context'],
    [{ contextTokens: 0, storageOnlyTokens: 2_500 }, '~2.5k tokens, stored only'],
    [{ contextTokens: 0, storageOnlyTokens: 0 }, 'no tokens'],
  ])('words %o as %s', (split, words) => {
    expect(describeTokenSplit(split)).toBe(words)
  })
})

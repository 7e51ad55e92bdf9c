import { describe, expect, it } from 'vitest'
import { reviewTotals, type Review, type ReviewMessage } from './pruning.data'

const counted = (messageID: string, tokens: number, storageOnly: boolean): ReviewMessage => ({
  messageID,
  revision: 'r',
  indexes: 'all',
  parts: [],
  storageOnly,
  counts: { tools: 1, reasoning: 1, bytes: tokens * 4, tokens, toolNames: ['bash'], completedAt: null },
})

describe('reviewTotals', () => {
  it('splits the tokens into context and storage only by each message, as the api marks it', () => {
    const review: Review = { scope: 'session', refused: [], messages: [counted('a', 1200, true), counted('b', 300, false), counted('c', 800, true)] }
    expect(reviewTotals(review)).toMatchObject({ messages: 3, tools: 3, reasoning: 3, tokens: 2300, contextTokens: 300, storageOnlyTokens: 2000 })
  })

  it('sums a selection by its previewed parts', () => {
    const part = (index: number, tokens: number) => ({ index, type: 'tool' as const, tool: 'read', title: null, status: 'completed', bytes: 10, tokens })
    const message = { ...counted('a', 0, false), counts: undefined, indexes: [0, 1], parts: [part(0, 40), part(1, 60)] } as unknown as ReviewMessage
    expect(reviewTotals({ scope: 'selection', refused: [], messages: [message] })).toMatchObject({ tools: 2, bytes: 20, tokens: 100, contextTokens: 100, storageOnlyTokens: 0 })
  })
})

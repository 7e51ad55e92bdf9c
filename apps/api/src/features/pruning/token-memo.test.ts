import { describe, expect, it } from 'vitest'
import { createLazyTokenizer } from '../../lib/tokenizer.js'
import { createTokenMemo, memoPartTokens, mergeTokenMemo } from './token-memo.js'

const tokenizer = createLazyTokenizer()
const estimatePartTokens = tokenizer.estimatePartTokens
const tool = (output: string) => ({ type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'ls' }, output } })

describe('memoPartTokens', () => {
  it('answers what estimatePartTokens answers, for short, long and sampled texts, first and again', () => {
    const memo = createTokenMemo()
    const parts = [tool('ok'), tool('word '.repeat(400)), tool('line of output\n'.repeat(6000)), { type: 'reasoning', text: 'thinking '.repeat(50) }]
    for (const round of [1, 2]) {
      for (const part of parts) expect(memoPartTokens(memo, tokenizer, part, 'v1'), `round ${round}`).toBe(estimatePartTokens(part, 'v1'))
    }
    // Only the long texts are remembered; the short ones cost less to tokenize again.
    expect(memo.counts.size).toBe(3)
  })

  it('keys by the text the model reads: the same output in another part shares the entry, a changed one does not', () => {
    const memo = createTokenMemo()
    const output = 'x = 1\n'.repeat(300)
    memoPartTokens(memo, tokenizer, tool(output), 'v1')
    memoPartTokens(memo, tokenizer, { ...tool(output), id: 'prt_other' }, 'v1')
    expect(memo.counts.size).toBe(1)
    const changed = tool(output + 'y = 2\n')
    expect(memoPartTokens(memo, tokenizer, changed, 'v1')).toBe(estimatePartTokens(changed, 'v1'))
    expect(memo.counts.size).toBe(2)
  })
})

describe('mergeTokenMemo', () => {
  it('takes in the counts a copy gained, keeps its own, and answers them without tokenizing again', () => {
    const memo = createTokenMemo()
    const kept = tool('kept '.repeat(100))
    memoPartTokens(memo, tokenizer, kept, 'v1')
    const copy = { counts: new Map(memo.counts) }
    const gained = tool('gained '.repeat(100))
    memoPartTokens(copy, tokenizer, gained, 'v1')
    mergeTokenMemo(memo, copy.counts)
    expect([...memo.counts.keys()]).toEqual([...copy.counts.keys()])
    // A tokenizer that cannot count: the merged entry answers by itself.
    const broken = { estimateTokens: () => { throw new Error('tokenized again') }, estimatePartTokens: () => { throw new Error('tokenized again') } }
    expect(memoPartTokens(memo, broken, gained, 'v1')).toBe(estimatePartTokens(gained, 'v1'))
  })
})

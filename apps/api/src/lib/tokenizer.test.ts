import { createRequire } from 'node:module'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { createLazyTokenizer } from './tokenizer.js'

const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => /gpt-tokenizer[\\/]cjs[\\/]encoding[\\/]o200k_base/.test(file))

describe('createLazyTokenizer', () => {
  it('loads the tables on the first count, and counts as gpt-tokenizer does', () => {
    const tokenizer = createLazyTokenizer()
    expect(loaded()).toBe(false)
    const text = 'const answer = await fetch(url) // 42 tokens? no.'
    expect(tokenizer.estimateTokens(text)).toBe(countTokens(text))
    expect(loaded()).toBe(true)
    const part = { type: 'tool', state: { input: { command: 'ls -la' }, output: 'total 0\n' } }
    expect(tokenizer.estimatePartTokens(part, 'v1')).toBe(countTokens('{"command":"ls -la"}total 0\n'))
  })

  it('leaves inline base64 images out and samples long text', () => {
    const tokenizer = createLazyTokenizer()
    expect(tokenizer.estimateTokens(`see data:image/png;base64,${'A'.repeat(4000)} here`)).toBe(countTokens('see  here'))
    const long = 'word '.repeat(40_000)
    expect(tokenizer.estimateTokens(long)).toBeGreaterThan(30_000)
    expect(tokenizer.estimateTokens(long)).toBeLessThan(50_000)
  })
})

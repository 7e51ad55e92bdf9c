import { describe, expect, it } from 'vitest'
import { parseQuery } from './query.js'
import { searchHint } from './search-hints.js'

const hint = (input: string, found = 0) => searchHint(input, parseQuery(input), found)

describe('searchHint', () => {
  it('says there is nothing to search for, or only exclusions', () => {
    expect(hint('"((')).toBe('Nothing to search for: type a word with letters or digits.')
    expect(hint('✅ *')).toBe('Nothing to search for: type a word with letters or digits.')
    expect(hint('-offset')).toBe('Add a word to look for: -word only leaves results out.')
  })

  it('says OR is a word and a one-letter prefix a word, with results or without', () => {
    expect(hint('keyset OR pagination', 3)).toBe('Every word must match: “OR” is searched as a word, not as an operator.')
    expect(hint('k*', 2)).toBe('A prefix needs two characters or more: “k*” is searched as the word “k”.')
    expect(hint('auth -x* k*')).toBe('A prefix needs two characters or more: “x*” is searched as the word “x”.')
  })

  it('explains a short word only when nothing matched', () => {
    expect(hint('HS')).toBe('Words under three characters match whole words only: “HS” is not looked for inside longer names.')
    expect(hint('HS', 4)).toBeNull()
    expect(hint('-HS keyset')).toBeNull()
  })

  it('stays quiet for a query read as written', () => {
    for (const q of ['keyset', 'or else', 'auth*', '"exact phrase"', 'keyset -draft', 'ke*']) expect(hint(q, 1)).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { parseQuery } from './query.js'
import { searchHint, type HintAnswer } from './search-hints.js'

const hint = (input: string, answer: HintAnswer = { found: 0, mode: 'index' }) => searchHint(input, parseQuery(input), answer)
const found = { found: 3, mode: 'index' } as const

describe('searchHint', () => {
  it('says there is nothing to search for, or only exclusions', () => {
    expect(hint('"((')).toBe('Nothing to search for: type a word with letters or digits.')
    expect(hint('✅ *')).toBe('Nothing to search for: type a word with letters or digits.')
    expect(hint('-offset')).toBe('Add a word to look for: -word only leaves results out.')
  })

  it('says OR is a word and a one-letter prefix a word, with results or without', () => {
    expect(hint('keyset OR pagination', found)).toBe('Every word must match: “OR” is searched as a word, not as an operator.')
    expect(hint('NEAR(cursor offset)', found)).toBe('Every word must match: “NEAR” is searched as a word, not as an operator.')
    expect(hint('(a OR b)', found)).toBe('Every word must match: “OR” is searched as a word, not as an operator.')
    expect(hint('k*', found)).toBe('A prefix needs two characters or more: “k*” is searched as the word “k”.')
    expect(hint('auth -x* k*')).toBe('A prefix needs two characters or more: “x*” is searched as the word “x”.')
  })

  it('takes a lower-case or for an operator only when nothing matched', () => {
    expect(hint('keyset or pagination')).toBe('Every word must match: “or” is searched as a word, not as an operator.')
    expect(hint('keyset or pagination', found)).toBeNull()
    expect(hint('or')).toBe('Words under three characters match whole words only: “or” is not looked for inside longer names.')
  })

  it('explains a short word only when the index found nothing', () => {
    expect(hint('HS')).toBe('Words under three characters match whole words only: “HS” is not looked for inside longer names.')
    expect(hint('HS', found)).toBeNull()
    // The literal scan finds words inside longer ones, so there it would be wrong.
    expect(hint('HS', { found: 0, mode: 'scan' })).toBeNull()
    expect(hint('-HS keyset')).toBeNull()
  })

  it('stays quiet for an empty query, and for one read as written', () => {
    expect(hint('')).toBeNull()
    expect(hint('   ')).toBeNull()
    for (const q of ['keyset', 'or else', 'auth*', '"exact phrase"', 'keyset -draft', 'ke*', '"id INTEGER NOT NULL"', '"keyset OR pagination" auth', '-OR keyset', 'auth /* TODO', 'auth -*']) {
      expect([q, hint(q, found)]).toEqual([q, null])
    }
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { foldText, hasPositiveTerm, parseQuery, QUERY_LIMITS, tokenize } from './query.js'

describe('parseQuery', () => {
  it.each([
    ['plain words', 'fix login', [{ kind: 'word', text: 'fix', negated: false }, { kind: 'word', text: 'login', negated: false }]],
    ['a phrase', '"login bug"', [{ kind: 'phrase', text: 'login bug', negated: false }]],
    ['an exclusion', 'login -draft', [{ kind: 'word', text: 'login', negated: false }, { kind: 'word', text: 'draft', negated: true }]],
    ['an excluded phrase', '-"old api"', [{ kind: 'phrase', text: 'old api', negated: true }]],
    ['a prefix', 'auth*', [{ kind: 'prefix', text: 'auth', negated: false }]],
    ['a code token', 'PR1137', [{ kind: 'word', text: 'PR1137', negated: false }]],
    ['a path', 'src/cli.js', [{ kind: 'word', text: 'src/cli.js', negated: false }]],
    ['a dash inside a word', 'foo-bar', [{ kind: 'word', text: 'foo-bar', negated: false }]],
    ['command-line flags, not exclusions', 'cli --top --check-config', [
      { kind: 'word', text: 'cli', negated: false }, { kind: 'word', text: '--top', negated: false }, { kind: 'word', text: '--check-config', negated: false },
    ]],
  ])('reads %s', (_name, input, terms) => {
    expect(parseQuery(input)).toEqual({ terms, truncated: false })
  })

  it.each([
    ['a lone quote', '"'],
    ['unbalanced quotes', 'foo "bar'],
    ['only stars', '***'],
    ['a star in the middle', 'fo*o'],
    ['a one-letter prefix', 'a*'],
    ['FTS5 operators', 'foo NEAR(bar baz, 3) OR qux AND NOT x'],
    ['column filters', '{title body}: foo title:bar'],
    ['a caret and plus', '^foo +bar'],
    ['unbalanced parentheses', '((foo) bar))'],
    ['control characters', 'foo\u0000bar\u0007\u001b[31m\u202e'],
    ['snippet markers', '\uE000foo\uE001'],
    ['other scripts', 'Привет 日本語テキスト مرحبا ελληνικά 🙂'],
    ['a lone dash', '- foo -'],
    ['double dashes', '--foo'],
    ['only an exclusion', '-foo'],
    ['backslashes', 'C:\\Users\\me "a\\"b"'],
    ['sql', "'; DROP TABLE doc; --"],
  ])('never throws and keeps only tokenizable terms for %s', (_name, input) => {
    const parsed = parseQuery(input)
    for (const term of parsed.terms) {
      expect(tokenize(term.text).length).toBeGreaterThan(0)
      expect(term.text).not.toMatch(/[\p{Cc}\p{Cf}\uE000\uE001]/u)
    }
  })

  it('bounds a 10 KB query and says it was truncated', () => {
    const parsed = parseQuery('word '.repeat(2048))
    expect(parsed).toEqual({ terms: [{ kind: 'word', text: 'word', negated: false }], truncated: false })
    const many = parseQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))
    expect(many.terms).toHaveLength(QUERY_LIMITS.terms)
    expect(many.truncated).toBe(true)
    const long = parseQuery('y'.repeat(10_240))
    expect(long.terms[0]!.text).toHaveLength(QUERY_LIMITS.termChars)
    expect(long.truncated).toBe(true)
  })

  it('drops repeated terms', () => {
    expect(parseQuery('foo FOO foo').terms).toHaveLength(1)
  })

  it('knows a query of exclusions alone selects nothing', () => {
    expect(hasPositiveTerm(parseQuery('-foo -bar'))).toBe(false)
    expect(hasPositiveTerm(parseQuery('foo -bar'))).toBe(true)
  })

  it('never throws on arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const parsed = parseQuery(text)
        expect(parsed.terms.length).toBeLessThanOrEqual(QUERY_LIMITS.terms)
      }),
      { numRuns: 500 },
    )
  })
})

describe('foldText/tokenize', () => {
  it('folds case and accents as the index does', () => {
    expect(foldText('RÉFLEXION Ærø')).toBe('reflexion ærø')
    expect(tokenize('src/cli.js: PR1137, getUserName()')).toEqual(['src', 'cli', 'js', 'pr1137', 'getusername'])
  })
})

import { describe, expect, it } from 'vitest'
import { foldText, parseQuery } from './query.js'
import { compileLiteralMatcher, excerptSegments, fromMatchLine, splitMarkedSnippet } from './search-match.js'

const matches = (query: string, text: string) => compileLiteralMatcher(parseQuery(query)).test(foldText(text))

describe('compileLiteralMatcher', () => {
  it.each([
    ['all words', 'login bug', 'The login has a bug', true],
    ['a missing word', 'login crash', 'The login has a bug', false],
    ['a phrase in order', '"login bug"', 'a login  bug here', true],
    ['a phrase out of order', '"bug login"', 'a login bug here', false],
    ['an exclusion', 'login -draft', 'login draft', false],
    ['a prefix at a token start', 'auth*', 'the authentication', true],
    ['a prefix inside a token', 'uth*', 'the authentication', false],
    ['a substring in a code token', '1137', 'merged PR1137 today', true],
    ['a short word as a whole token', 'c', 'see c.js', true],
    ['a short word never inside a longer one', 'c', 'Fix duplicate users across pages', false],
    ['a two-letter word inside a code token', 'x0', 'offset 0x0f', false],
    ['a flag', '--check-config', 'npm start -- --check-config', true],
    ['accents and case', 'reflexion', 'RÉFLEXION', true],
    ['only exclusions', '-foo', 'bar', false],
  ])('%s', (_name, query, text, expected) => {
    expect(matches(query, text)).toBe(expected)
  })

  it('gives match ranges in the original text, ASCII or not, whole characters, at most `limit`', () => {
    const ranges = (query: string, text: string, limit?: number) => compileLiteralMatcher(parseQuery(query)).ranges(text, limit)
      .map(([s, e]) => text.slice(s, e))
    expect(ranges('login', 'Login, then LOGIN again')).toEqual(['Login', 'LOGIN'])
    expect(ranges('reflexion', 'Une RÉFLEXION, une réflexion')).toEqual(['RÉFLEXION', 'réflexion'])
    expect(ranges('"a 𝒳"', 'see a 𝒳 here')).toEqual(['a 𝒳'])
    expect(ranges('login', 'login login login', 2)).toEqual(['login', 'login'])
    expect(ranges('é', 'x e\u0301 y')).toEqual(['e\u0301'])
    expect(ranges('c', 'a c.js in src/c, not in cc or ac')).toEqual(['c', 'c'])
  })

  it('marks a prefix to the end of the token it starts, as the index does, and matches as before', () => {
    const ranges = (query: string, text: string) => compileLiteralMatcher(parseQuery(query)).ranges(text).map(([s, e]) => text.slice(s, e))
    expect(ranges('paginat*', 'Add pagination; PAGINATED lists, paginat.')).toEqual(['pagination', 'PAGINATED', 'paginat'])
    // Token characters are letters, digits and private use; `_`, `.`, `-` and spaces end a token.
    expect(ranges('rea*', 'read_input readme.md re\uE123ad')).toEqual(['read', 'readme'])
    expect(ranges('pr11*', 'merged PR1137-fix and pr11\uE123x')).toEqual(['PR1137', 'pr11\uE123x'])
    expect(ranges('reflex*', 'Une RÉFLEXION, des re\u0301flexions\u0301 𝒳')).toEqual(['RÉFLEXION', 're\u0301flexions\u0301'])
    expect(ranges('login-bu*', 'the login-bugfix branch')).toEqual(['login-bugfix'])
    expect(ranges('auth* token', 'authToken2 token')).toEqual(['authToken2', 'token'])
    expect(matches('pagin* -paginated', 'pagination')).toBe(true)
    expect(matches('pagin* -paginat*', 'pagination')).toBe(false)
  })
})

describe('excerptSegments', () => {
  it('marks matches in the original text around the first one', () => {
    const text = 'x'.repeat(200) + ' Réflexion about PR1137 ' + 'y'.repeat(400)
    const segments = excerptSegments(text, compileLiteralMatcher(parseQuery('reflexion 1137')))
    expect(segments.filter((s) => s.match).map((s) => s.text)).toEqual(['Réflexion', '1137'])
    expect(segments[0]!.text.startsWith('…')).toBe(true)
    expect(segments.at(-1)!.text.endsWith('…')).toBe(true)
    expect(segments.map((s) => s.text).join('').length).toBeLessThanOrEqual(322)
  })

  it('starts on the first match\'s line, so a three-line preview shows it', () => {
    const matcher = compileLiteralMatcher(parseQuery('"run the tests"'))
    const values = ['Fix readInput', 'in_progress', 'high', '1', 'Run the tests', 'pending']
    expect(excerptSegments(values.join('\n'), matcher)).toEqual([
      { text: '…', match: false },
      { text: 'Run the tests', match: true },
      { text: '\npending', match: false },
    ])
    const long = `${'x'.repeat(200)}\nsee: ${'y '.repeat(100)}run the tests`
    expect(excerptSegments(long, matcher)[0]).toEqual({ text: `…${'y '.repeat(40)}`, match: false })
    expect(excerptSegments('\nrun the tests', matcher)[0]).toEqual({ text: '…', match: false })
    expect(excerptSegments('run the tests\nnext', matcher)[0]).toEqual({ text: 'run the tests', match: true })
  })
})

describe('splitMarkedSnippet', () => {
  it('turns markers into segments and never HTML', () => {
    expect(splitMarkedSnippet('a <b>\uE000login\uE001 bug')).toEqual([
      { text: 'a <b>', match: false },
      { text: 'login', match: true },
      { text: ' bug', match: false },
    ])
  })
})

describe('fromMatchLine', () => {
  it('drops whole lines before the first match, and nothing when the match is on the first line', () => {
    expect(fromMatchLine(splitMarkedSnippet('…done\n- used read\n\n### \uE000Active\uE001\n- Add…'))).toEqual([
      { text: '…### ', match: false },
      { text: 'Active', match: true },
      { text: '\n- Add…', match: false },
    ])
    const same = splitMarkedSnippet('…the \uE000login\uE001 bug\nnext')
    expect(fromMatchLine(same)).toEqual(same)
    expect(fromMatchLine([{ text: 'a\nb', match: false }])).toEqual([{ text: 'a\nb', match: false }])
  })
})

import { describe, expect, it } from 'vitest'
import { parseQuery } from './query.js'
import { compileIndexTerms, indexTerms, SNIPPET_SCAN_CHARS } from './search-snippet.js'

const snippet = (query: string, columns: Array<string | null>, expansions = new Map<number, string[]>()) =>
  compileIndexTerms(indexTerms(parseQuery(query), expansions)).snippet(columns)
const marked = (query: string, columns: Array<string | null>, expansions?: Map<number, string[]>) =>
  snippet(query, columns, expansions)?.filter((s) => s.match).map((s) => s.text) ?? null
const text = (query: string, columns: Array<string | null>) => snippet(query, columns)?.map((s) => s.text).join('') ?? null

describe('indexTerms', () => {
  it('folds tokens and alternatives, keeps exclusions apart and drops terms without tokens', () => {
    const terms = indexTerms(parseQuery('Réflexion "login bug" auth* -Draft 1137'), new Map([[4, ['PR1137']]]))
    expect(terms.positive).toEqual([
      { kind: 'word', tokens: ['reflexion'], alternatives: [] },
      { kind: 'phrase', tokens: ['login', 'bug'], alternatives: [] },
      { kind: 'prefix', tokens: ['auth'], alternatives: [] },
      { kind: 'word', tokens: ['1137'], alternatives: ['pr1137'] },
    ])
    expect(terms.negative).toEqual([{ kind: 'word', tokens: ['draft'], alternatives: [] }])
  })
})

describe('compileIndexTerms().snippet', () => {
  it('marks whole tokens as the index matches them', () => {
    expect(marked('let', ['', 'let it be, letter, outlet, LET'])).toEqual(['let', 'LET'])
    expect(marked('auth*', ['', 'the Authentication and oauth'])).toEqual(['Authentication'])
    expect(marked('"login bug"', ['', 'a login  bug; login, bug! bug login'])).toEqual(['login  bug', 'login, bug'])
    expect(marked('1137', ['', 'merged PR1137 and 1137 but not x11375'], new Map([[0, ['pr1137']]]))).toEqual(['PR1137', '1137'])
    expect(marked('reflexion', ['', 'Une RÉFLEXION, une re\u0301flexion'])).toEqual(['RÉFLEXION', 're\u0301flexion'])
  })

  it('is null unless every word is there as a token and no excluded one is (the index then decides)', () => {
    expect(snippet('let', ['', 'letter and outlet'])).toBeNull()
    expect(snippet('login crash', ['login', 'no such word'])).toBeNull()
    expect(snippet('login -draft', ['login', '', '', '', 'a Draft'])).toBeNull()
    expect(snippet('login crash', ['login', '', '', '', 'a crash'])).not.toBeNull()
    expect(snippet('auth* authentication', ['', 'authentication'])).not.toBeNull()
    expect(snippet('-draft', ['draft'])).toBeNull()
  })

  it('passes over a column longer than it scans', () => {
    expect(snippet('login', ['login', 'x'.repeat(SNIPPET_SCAN_CHARS + 1)])).toBeNull()
  })

  it('takes the column with the most distinct terms, then the most hits', () => {
    expect(text('login bug', ['login page', '', '', '', 'the login bug again'])).toBe('the login bug again')
    expect(text('login', ['login page', '', '', '', 'login login'])).toBe('login login')
    expect(text('login', ['login page', 'login desk'])).toBe('login page')
  })

  it('cuts about 24 tokens around the passage with the most terms, with ellipses where text was left out', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`)
    words[20] = 'login'
    words[150] = 'login'
    words[152] = 'bug'
    const segments = snippet('login bug', ['', words.join(' ')])!
    const shown = segments.map((s) => s.text).join('')
    expect(shown.startsWith('…w139 ')).toBe(true)
    expect(shown.endsWith(' w162…')).toBe(true)
    expect(shown.match(/[a-z0-9]+/g)).toHaveLength(24)
    expect(segments.filter((s) => s.match).map((s) => s.text)).toEqual(['login', 'bug'])
    expect(text('login', ['login at the start'])).toBe('login at the start')
  })

  it('starts the passage on the line of its match, so a three-line preview shows it', () => {
    const body = '## Work State\n### Completed\n- used `read`\n- used `write`\n\n### Active\n- Add a test that pipes input.\n### Blocked\n- (none)'
    expect(text('active', ['', body])).toBe('…Active\n- Add a test that pipes input.\n### Blocked\n- (none)')
    expect(text('pipes', ['', body])).toBe('…Add a test that pipes input.\n### Blocked\n- (none)')
  })

  it('keeps passages with long tokens short and never cuts a surrogate pair', () => {
    const long = `${'a'.repeat(3000)} needle ${'b'.repeat(3000)}`
    const shown = text('needle', ['', long])!
    expect(shown.length).toBeLessThanOrEqual(482)
    expect(shown).toContain('needle')
    const emoji = `${'𝒳'.repeat(400)} needle ${'𝒳'.repeat(400)}`
    const cut = text('needle', ['', emoji])!
    expect(cut).toContain('needle')
    expect(cut).not.toMatch(/^…?[\uDC00-\uDFFF]|[\uD800-\uDBFF]…?$/)
  })
})

import { describe, expect, it } from 'vitest'
import { parseQuery } from './query.js'
import { compileIndexTerms, indexTerms, SNIPPET_SCAN_CHARS } from './search-snippet.js'

const snippet = (query: string, columns: Array<string | null>, expansions = new Map<number, string[]>()) =>
  compileIndexTerms(indexTerms(parseQuery(query), expansions)).snippet(columns)
const marked = (query: string, columns: Array<string | null>, expansions?: Map<number, string[]>) =>
  snippet(query, columns, expansions)?.filter((s) => s.match).map((s) => s.text) ?? null
const text = (query: string, columns: Array<string | null>) => snippet(query, columns)?.map((s) => s.text).join('') ?? null

describe('indexTerms', () => {
  it('folds tokens and alternatives, and leaves out exclusions and terms without tokens', () => {
    expect(indexTerms(parseQuery('Réflexion "login bug" auth* -Draft 1137 ---'), new Map([[4, ['PR1137']]]))).toEqual([
      { kind: 'word', tokens: ['reflexion'], alternatives: [], source: ['Réflexion'] },
      { kind: 'phrase', tokens: ['login', 'bug'], alternatives: [], source: ['login bug'] },
      { kind: 'prefix', tokens: ['auth'], alternatives: [], source: ['auth'] },
      { kind: 'word', tokens: ['1137'], alternatives: ['pr1137'], source: ['1137', 'PR1137'] },
    ])
  })
})

describe('compileIndexTerms().snippet', () => {
  it('marks whole tokens as the index matches them', () => {
    expect(marked('let', ['', 'let it be, letter, outlet, LET'])).toEqual(['let', 'LET'])
    expect(marked('auth*', ['', 'the Authentication and oauth'])).toEqual(['Authentication'])
    expect(marked('"login bug"', ['', 'a login  bug; login, bug! bug login'])).toEqual(['login  bug', 'login, bug'])
    expect(marked('1137', ['', 'merged PR1137 and 1137 but not x11375'], new Map([[0, ['pr1137']]]))).toEqual(['PR1137', '1137'])
    expect(marked('reflexion', ['', 'Une RÉFLEXION, une réflexion'])).toEqual(['RÉFLEXION', 'réflexion'])
  })

  it("follows a match in a short field alone (a tool's name) with the document's other text", () => {
    // Columns: title, body, tool, input, output.
    expect(text('todowrite', ['Update the todo list', '', 'todowrite', '[{"content":"ship"}]', 'ok'])).toBe('todowrite · Update the todo list')
    expect(text('todowrite', ['', '', 'todowrite', 'write the plan\nthen ship', ''])).toBe('todowrite · write the plan')
    // A match in two fields, a long field, or a bare name beside it: nothing is added.
    expect(text('cat', ['cat app.log', '', 'bash', 'cat app.log', ''])).toBe('cat app.log')
    expect(text('stdin', ['', 'read stdin when no file is given', null, null, null])).toBe('read stdin when no file is given')
    expect(text('deploy', ['Deploy', '', 'bash', '', ''])).toBe('Deploy')
  })

  it('is null unless every word is there as a whole token (the index then decides)', () => {
    expect(snippet('let', ['', 'letter and outlet'])).toBeNull()
    expect(snippet('login crash', ['login', 'no such word'])).toBeNull()
    expect(snippet('login crash', ['login', '', '', '', 'a crash'])).not.toBeNull()
    expect(snippet('auth* authentication', ['', 'authentication'])).not.toBeNull()
    expect(snippet('login -draft', ['login', '', '', '', 'a Draft'])).not.toBeNull()
    expect(snippet('-draft', ['draft'])).toBeNull()
  })

  it('leaves text whose tokens unicode61 reads differently to the index', () => {
    // unicode61 keeps `ё` and splits `कार` at its vowel sign; it reads `₽` and emoji (newer than its
    // Unicode 6.1 tables) as letters, so `100₽` is one token and `login 🧪 bug` no phrase.
    expect(snippet('все', ['', 'всё'])).toBeNull()
    expect(snippet('कर', ['', 'कार'])).toBeNull()
    expect(snippet('100', ['', 'costs 100₽'])).toBeNull()
    expect(snippet('"login bug"', ['', 'login 🧪 bug'])).toBeNull()
    expect(snippet('ファイル', ['', 'ファイル'])).toBeNull()
    expect(snippet('cafe', ['', 'cafe\u0301'])).toBeNull()
    // The query too, as the index is given it: unicode61 keeps `ǡ` and reads `login🧪bug` as one token.
    expect(snippet('ǡb', ['', 'ab'])).toBeNull()
    expect(snippet('login🧪bug', ['', 'login bug'])).toBeNull()
    // Latin accents, dashes, arrows, box drawing and check marks agree.
    expect(marked('reflexion', ['', '✓ Réflexion — ok → ┌─┐'])).toEqual(['Réflexion'])
  })

  it('marks a phrase whole where a word of it matches too', () => {
    expect(marked('login "login bug"', ['', 'the login bug, then login'])).toEqual(['login bug', 'login'])
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
    expect(text('active', ['', body])).toBe('…### Active\n- Add a test that pipes input.\n### Blocked\n- (none)')
    expect(text('pipes', ['', body])).toBe('…- Add a test that pipes input.\n### Blocked\n- (none)')
    expect(text('"type file"', ['', '<path>/a.ts</path>\n<type>file</type>\n<content>'])).toBe('…<type>file</type>\n<content>')
    // A long lead-in of box drawing is not kept.
    expect(text('needle', ['', `top\n${'│   '.repeat(40)}needle here`])).toBe('…needle here')
  })

  it('keeps passages with long tokens short', () => {
    const tokens = (n: number, unit: string) => Array.from({ length: n }, (_, i) => `${unit.repeat(20)}${i}`).join(' ')
    const shown = text('needle', ['', `${tokens(30, 'ab')} needle ${tokens(30, 'cd')}`])!
    expect(shown.length).toBeLessThanOrEqual(482)
    expect(shown).toMatch(/^…[ab].* needle cd.*…$/s)
  })

  it('cuts a prefix match that runs through a whole base64 blob', () => {
    const segments = snippet('abc*', ['', `see abc${'x'.repeat(20_000)} end`])!
    expect(segments.find((s) => s.match)!.text.length).toBeLessThanOrEqual(480)
    expect(segments.map((s) => s.text).join('').length).toBeLessThanOrEqual(482)
    expect(segments.at(-1)!.text).toBe('…')
  })
})

describe('compileIndexTerms().anchors', () => {
  const anchors = (query: string, columns: Array<string | null>) => compileIndexTerms(indexTerms(parseQuery(query))).anchors(columns)
  it('finds the best passage of each column, best first, in any script and at any length', () => {
    // Columns: title, body, tool, input, output. Both words in the output outrank one in the title.
    expect(anchors('login bug', ['login', '', 'bash', '', 'x login bug'])).toEqual([{ column: 4, start: 2 }, { column: 0, start: 0 }])
    const long = `${'x '.repeat(SNIPPET_SCAN_CHARS)}🧪 login`
    expect(anchors('login', ['', long])).toEqual([{ column: 1, start: long.length - 5 }])
    expect(anchors('login', ['', 'nothing here'])).toEqual([])
  })
})

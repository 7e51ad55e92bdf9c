import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { objectPieces, parseCanonicalObject } from './canonical-text.js'
import { canonicalJson, canonicalPieces } from './revision.js'

/** Checks every promise parseCanonicalObject makes for `text`, against JSON.parse + canonicalJson. */
function expectCanonical(text: string) {
  const { value, canonical } = parseCanonicalObject(text)
  const parsed = JSON.parse(text) as Record<string, unknown>
  expect(value).toEqual(parsed)
  expect(canonical).not.toBeNull()
  if (!canonical) return
  expect(objectPieces(canonical.members).join('')).toBe(canonicalJson(parsed))
  expect([...canonical.members.keys()].sort()).toEqual(Object.keys(parsed).sort())
  for (const [key, pieces] of canonical.members) expect(pieces.join('')).toBe(canonicalJson(parsed[key]))
  for (const [key, items] of canonical.elements) expect(items.map((p) => p.join(''))).toEqual((parsed[key] as unknown[]).map((v) => canonicalJson(v)))
  const arrays = Object.keys(parsed).filter((k) => Array.isArray(parsed[k]))
  expect([...canonical.elements.keys()].sort()).toEqual(arrays.sort())
}

/** JSON text for `value` written as some other writer might: spacing, escapes and number forms vary with `seed`. */
function looseJson(value: unknown, seed: number): string {
  let state = seed >>> 0 || 1
  const pick = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state % n
  }
  const space = () => [' ', '', '\n\t', ' \r\n '][pick(4)]!
  const str = (s: string) => {
    let out = '"'
    for (const ch of s) {
      const code = ch.codePointAt(0)!
      const way = pick(6)
      if (ch === '"' || ch === '\\') out += '\\' + ch
      else if (code < 0x20) out += way < 2 ? '\\u' + code.toString(16).padStart(4, '0').toUpperCase() : JSON.stringify(ch).slice(1, -1)
      else if (ch === '/' && way === 0) out += '\\/'
      else if (way === 1) for (const unit of ch.split('')) out += '\\u' + unit.charCodeAt(0).toString(16).padStart(4, '0')
      else if (way === 2 && code > 0xffff) out += ch.split('').map((u) => '\\u' + u.charCodeAt(0).toString(16).toUpperCase()).join('')
      else out += code >= 0xd800 && code <= 0xdfff ? '\\u' + code.toString(16) : ch
    }
    return out + '"'
  }
  const write = (v: unknown): string => {
    if (typeof v === 'string') return str(v)
    if (typeof v === 'number') return [String(v), v.toExponential(), Number.isSafeInteger(v) ? `${v}.0` : String(v), String(v).toUpperCase()][pick(4)]!
    if (v === null || typeof v !== 'object') return JSON.stringify(v)
    if (Array.isArray(v)) return '[' + space() + v.map((x) => write(x) + space()).join(',' + space()) + ']'
    const entries = Object.entries(v as Record<string, unknown>)
    return '{' + space() + entries.map(([k, x]) => str(k) + space() + ':' + space() + write(x)).join(',' + space()) + space() + '}'
  }
  return space() + write(value) + space()
}

// Hundreds of generated objects each: about a second alone, several times that beside the api's suite on 2 cores.
const PROPERTY_TIMEOUT_MS = 30_000

const objects = fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue())

describe('parseCanonicalObject', () => {
  it('gives canonicalJson of each member for JSON.stringify output (property)', () => {
    fc.assert(fc.property(objects, (value) => expectCanonical(JSON.stringify(value))), { numRuns: 300 })
  }, PROPERTY_TIMEOUT_MS)

  it('gives canonicalJson of each member for text written any other valid way (property)', () => {
    fc.assert(fc.property(objects, fc.integer(), (value, seed) => expectCanonical(looseJson(value, seed))), { numRuns: 600 })
  }, PROPERTY_TIMEOUT_MS)

  it.each([
    ['non-canonical escapes', '{"a":"\\u00e9\\/x\\u001F\\u000a","b":"\\ud83d\\ude00"}'],
    ['lone surrogates, escaped', '{"a":"\\ud800","b":"x\\udfff\\ud800y"}'],
    ['lone surrogates, raw', '{"a":"\ud800","b":"\udc00"}'],
    ['numbers in other forms', '{"a":1.0,"b":-0,"c":1e400,"d":12345678901234567890,"e":1E2,"f":[0.1e1,-0.0]}'],
    ['duplicate keys, the last one wins', '{"a":[1],"b":2,"a":{"z":1,"y":[2]},"b":[3]}'],
    ['__proto__ as a key', '{"__proto__":{"x":1},"a":1}'],
    ['escaped keys', '{"\\u0062":1,"a\\"b":2,"\\n":3}'],
    ['empty containers', ' { "a" : { } , "b" : [ ] } '],
  ])('handles %s', (_name, text) => expectCanonical(text))

  it('reuses large string tokens from the text instead of copying them', () => {
    const output = 'line "one"\n\tand a tab\u0001 '.repeat(40_000)
    const text = JSON.stringify({ state: { output, metadata: { output } }, type: 'tool' })
    const { canonical } = parseCanonicalObject(text)
    const pieces = canonical?.members.get('state') ?? []
    expect(pieces).toContain(JSON.stringify(output))
    expect(pieces.join('')).toBe(canonicalJson({ metadata: { output }, output }))
  })

  it('reads megabytes of back-to-back escapes', () => {
    for (const body of ['\\n'.repeat(2_000_000), '\\n'.repeat(2_000_000) + '\\/', 'a\\t'.repeat(700_000)]) expectCanonical(`{"a":"${body}"}`)
  })

  it('leaves text dense with small tokens to JSON.parse, and still answers its value', () => {
    const text = JSON.stringify({ items: Array.from({ length: 5000 }, (_, i) => ({ a: i, b: `x${i}` })), output: 'y'.repeat(100_000) })
    expect(parseCanonicalObject(text)).toEqual({ value: JSON.parse(text), canonical: null })
  })

  it.each([['an array', '[1]'], ['a string', '"x"'], ['invalid JSON', '{"a":'], ['empty text', ''], ['null', 'null']])('answers null for %s', (_name, text) => {
    expect(parseCanonicalObject(text)).toEqual({ value: null, canonical: null })
  })
})

describe('objectPieces', () => {
  it('sets overrides over the members as a spread does (property)', () => {
    fc.assert(
      fc.property(objects, fc.dictionary(fc.constantFrom('id', 'sessionID', 'a', ''), fc.option(fc.jsonValue(), { nil: undefined })), (value, overrides) => {
        const { canonical } = parseCanonicalObject(JSON.stringify(value))
        expect(objectPieces(canonical?.members ?? new Map(), overrides).join('')).toBe(canonicalJson({ ...value, ...overrides }))
      }),
    )
  })

  it('sorts members by UTF-16 code units, like canonicalJson', () => {
    const value = { '\uffff': 1, '\u{1F600}': [2], b: 'x' }
    const members = new Map(Object.entries(value).map(([k, v]) => [k, canonicalPieces(v)]))
    expect(objectPieces(members).join('')).toBe(canonicalJson(value))
  })
})

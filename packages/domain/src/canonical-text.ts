import type { JsonObject } from './native.js'
import { canonicalPieces, PieceWriter, type CanonicalPieces } from './revision.js'

/** An object parsed from JSON text, with the canonical pieces of its members read off the same text. */
export interface CanonicalObject {
  value: JsonObject
  /** Canonical pieces of each member (the last of duplicate keys wins, as in JSON.parse). */
  members: Map<string, CanonicalPieces>
  /** Canonical pieces of each element of the members that hold arrays. */
  elements: Map<string, CanonicalPieces[]>
}

// A run of escapes already in JSON.stringify's form (\" \\ \b \f \n \r \t, and \u00xx in lowercase
// for the other control characters), each followed by plain text. Bounded, so the regexp's
// backtracking stack stays small on megabytes of escapes.
// eslint-disable-next-line no-control-regex -- raw control characters end a run: JSON strings never hold them.
const CANONICAL_ESCAPES = /(?:\\(?:["\\bfnrt]|u00(?:0[0-7bef]|1[0-9a-f]))[^"\\\u0000-\u001f]*){1,256}/y
const ANY_ESCAPES = /(?:\\[\s\S][^"\\]*){1,256}/y
// Integers JSON.stringify writes back digit for digit (exact below 2^53; not -0).
const PLAIN_INTEGER = /^(?:0|-?[1-9][0-9]{0,14})$/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
// Reading pays off only where strings are long; on dense small tokens JSON.parse plus serializing the
// value is 2-3 times quicker. Past this many tokens, text averaging fewer characters each is left to that.
const DENSE_CHECK_TOKENS = 1024
const MIN_CHARS_PER_TOKEN = 64
const isWellFormed = (text: string): boolean => {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed
  return native ? native.call(text) : !LONE_SURROGATE.test(text)
}

/**
 * `JSON.parse(text)` when it is an object, plus `canonicalPieces` of each member computed from the
 * text: string tokens already written as JSON.stringify writes them are reused as they are (found
 * with indexOf, no per-character work in JavaScript); only other tokens are decoded and re-encoded.
 * `null` when the text is not a JSON object; `canonical` null when the text could not be read
 * canonically or is dense with small tokens (the caller serializes the value instead).
 */
export function parseCanonicalObject(text: string): { value: JsonObject | null; canonical: CanonicalObject | null } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { value: null, canonical: null }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { value: null, canonical: null }
  const object = value as JsonObject
  try {
    const { members, elements } = new CanonicalReader(text).topObject()
    return { value: object, canonical: { value: object, members, elements } }
  } catch {
    // Dense small tokens, or deeper nesting than the call stack allows: the value is still good.
    return { value: object, canonical: null }
  }
}

/**
 * Canonical pieces of an object given its members' pieces, with `overrides` set over them as
 * `{...object, ...overrides}` would (undefined values drop the key): keys sorted by UTF-16 code units.
 */
export function objectPieces(members: ReadonlyMap<string, CanonicalPieces>, overrides: JsonObject = {}): string[] {
  const all = new Map(members)
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined || typeof value === 'function') all.delete(key)
    else all.set(key, canonicalPieces(value))
  }
  const out = new PieceWriter()
  out.add('{')
  let first = true
  for (const key of [...all.keys()].sort()) {
    out.add(first ? JSON.stringify(key) + ':' : ',' + JSON.stringify(key) + ':')
    first = false
    out.addAll(all.get(key) ?? [])
  }
  out.add('}')
  return out.finish()
}

/** A reader over text JSON.parse has accepted: it checks what it relies on and throws otherwise. */
class CanonicalReader {
  private at = 0
  private tokens = 0
  private nextQuote = -2
  private nextBackslash = -2
  private readonly wellFormed: boolean

  constructor(private readonly text: string) {
    this.wellFormed = isWellFormed(text)
  }

  topObject(): { members: Map<string, CanonicalPieces>; elements: Map<string, CanonicalPieces[]> } {
    const members = new Map<string, CanonicalPieces>()
    const elements = new Map<string, CanonicalPieces[]>()
    this.space()
    this.expect(0x7b)
    this.members((key, out) => {
      if (this.peek() !== 0x5b) {
        this.value(out)
        elements.delete(key)
        return
      }
      const items = this.elements()
      elements.set(key, items)
      out.add('[')
      items.forEach((item, i) => {
        if (i > 0) out.add(',')
        out.addAll(item)
      })
      out.add(']')
    }, members)
    this.space()
    if (this.at !== this.text.length) throw new SyntaxError('trailing text')
    return { members, elements }
  }

  private peek(): number {
    this.space()
    return this.text.charCodeAt(this.at)
  }

  private expect(code: number): void {
    if (this.text.charCodeAt(this.at) !== code) throw new SyntaxError(`expected ${String.fromCharCode(code)} at ${this.at}`)
    this.at++
  }

  private space(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.at)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++
      else return
    }
  }

  private value(out: PieceWriter): void {
    const c = this.peek()
    if (c === 0x22) out.add(this.string(false).canonical)
    else if (c === 0x7b) {
      this.at++
      const members = new Map<string, CanonicalPieces>()
      this.members((_key, member) => this.value(member), members)
      out.addAll(objectPieces(members))
    } else if (c === 0x5b) {
      out.add('[')
      this.elements().forEach((item, i) => {
        if (i > 0) out.add(',')
        out.addAll(item)
      })
      out.add(']')
    } else out.add(this.scalar())
  }

  /** After `{`: each member's value written by `read` into its own pieces, up to and including `}`. */
  private members(read: (key: string, out: PieceWriter) => void, into: Map<string, CanonicalPieces>): void {
    if (this.peek() === 0x7d) {
      this.at++
      return
    }
    for (;;) {
      if (this.peek() !== 0x22) throw new SyntaxError(`expected a key at ${this.at}`)
      const key = this.string(true).decoded
      this.space()
      this.expect(0x3a)
      const out = new PieceWriter()
      read(key, out)
      into.set(key, out.finish())
      const next = this.peek()
      this.at++
      if (next === 0x7d) return
      if (next !== 0x2c) throw new SyntaxError(`expected , or } at ${this.at - 1}`)
    }
  }

  /** At `[`: each element's pieces, through `]`. */
  private elements(): CanonicalPieces[] {
    this.expect(0x5b)
    const items: CanonicalPieces[] = []
    if (this.peek() === 0x5d) {
      this.at++
      return items
    }
    for (;;) {
      const out = new PieceWriter()
      this.value(out)
      items.push(out.finish())
      const next = this.peek()
      this.at++
      if (next === 0x5d) return items
      if (next !== 0x2c) throw new SyntaxError(`expected , or ] at ${this.at - 1}`)
    }
  }

  private count(): void {
    if (++this.tokens % DENSE_CHECK_TOKENS === 0 && this.tokens * MIN_CHARS_PER_TOKEN > this.at) throw new RangeError('dense tokens')
  }

  /** A number, true, false or null, written as JSON.stringify writes the value it parses to. */
  private scalar(): string {
    this.count()
    const start = this.at
    const { text } = this
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at)
      if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break
      this.at++
    }
    const token = text.slice(start, this.at)
    if (token === 'true' || token === 'false' || token === 'null' || PLAIN_INTEGER.test(token)) return token
    return JSON.stringify(JSON.parse(token) as number)
  }

  /**
   * At `"`: the token as JSON.stringify would write its value (and, for keys, the value). Reused as
   * is when the text is free of lone surrogates and every escape is one JSON.stringify writes; raw
   * control characters cannot occur (JSON.parse accepted the text).
   */
  private string(key: boolean): { canonical: string; decoded: string } {
    this.count()
    const { text } = this
    const start = this.at
    const from = start + 1
    if (this.nextQuote < from && this.nextQuote !== -1) this.nextQuote = text.indexOf('"', from)
    if (this.nextBackslash < from && this.nextBackslash !== -1) this.nextBackslash = text.indexOf('\\', from)
    if (this.nextQuote === -1) throw new SyntaxError('unterminated string')
    let canonical = this.wellFormed
    let at = this.nextQuote
    if (this.nextBackslash !== -1 && this.nextBackslash < this.nextQuote) {
      at = this.nextBackslash
      while (text.charCodeAt(at) === 0x5c) {
        const escapes = canonical ? CANONICAL_ESCAPES : ANY_ESCAPES
        escapes.lastIndex = at
        if (escapes.test(text)) at = escapes.lastIndex
        else if (canonical) canonical = false
        else throw new SyntaxError(`bad escape at ${at}`)
      }
      if (text.charCodeAt(at) !== 0x22) throw new SyntaxError(`unterminated string at ${start}`)
    } else if (key && canonical) {
      this.at = at + 1
      return { canonical: text.slice(start, this.at), decoded: text.slice(from, at) }
    }
    this.at = at + 1
    const token = text.slice(start, this.at)
    if (canonical && !key) return { canonical: token, decoded: '' }
    const decoded = JSON.parse(token) as string
    return { canonical: canonical ? token : JSON.stringify(decoded), decoded }
  }
}

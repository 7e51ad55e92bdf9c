import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import type { Revision } from './ids.js'

/** A synchronous SHA-256 over UTF-8 bytes returning lowercase hex. The server may pass node:crypto's. */
export type Sha256Hex = (bytes: Uint8Array) => string

const encoder = new TextEncoder()

export const sha256Hex: Sha256Hex = (bytes) => bytesToHex(sha256(bytes))

/**
 * Canonical JSON as chunks whose concatenation is the canonical text. Large strings stay chunks of
 * their own, so hashing megabytes never copies them into one string first.
 */
export type CanonicalPieces = readonly string[]

/** Strings at least this long stay a piece of their own. */
const LARGE_PIECE = 16 * 1024

/** Collects canonical output: small texts are joined, large ones kept apart. */
export class PieceWriter {
  private readonly pieces: string[] = []
  private pending = ''

  add(text: string): void {
    if (text.length < LARGE_PIECE) {
      this.pending += text
      return
    }
    if (this.pending) this.pieces.push(this.pending)
    this.pending = ''
    this.pieces.push(text)
  }

  addAll(pieces: CanonicalPieces): void {
    for (const piece of pieces) this.add(piece)
  }

  finish(): string[] {
    if (this.pending) this.pieces.push(this.pending)
    this.pending = ''
    return this.pieces
  }
}

const skipped = (value: unknown) => value === undefined || typeof value === 'function'

function writeCanonical(value: unknown, out: PieceWriter): void {
  if (value === null || typeof value !== 'object') {
    out.add(JSON.stringify(value) ?? 'null')
    return
  }
  if (Array.isArray(value)) {
    out.add('[')
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.add(',')
      const item: unknown = value[i]
      if (skipped(item)) out.add('null')
      else writeCanonical(item, out)
    }
    out.add(']')
    return
  }
  const record = value as Record<string, unknown>
  out.add('{')
  let first = true
  for (const key of Object.keys(record).sort()) {
    const item = record[key]
    if (skipped(item)) continue
    out.add(first ? JSON.stringify(key) + ':' : ',' + JSON.stringify(key) + ':')
    first = false
    writeCanonical(item, out)
  }
  out.add('}')
}

/** `canonicalJson(value)` as pieces. */
export function canonicalPieces(value: unknown): string[] {
  const out = new PieceWriter()
  if (skipped(value)) out.add('null')
  else writeCanonical(value, out)
  return out.finish()
}

/**
 * Canonical JSON: object keys sorted by UTF-16 code units (plain `<`), entries whose value is
 * `undefined` dropped, array order kept, no whitespace. Everything else follows JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  return canonicalPieces(value).join('')
}

/**
 * The content revision the prune contract compares: SHA-256 hex of the canonical JSON of the
 * message content (2.x `data.content`, 1.x the parts in id order). Same answer in Node and browser.
 */
export function computeRevision(content: unknown, hash: Sha256Hex = sha256Hex): Revision {
  return hash(encoder.encode(canonicalJson(content))) as Revision
}

/**
 * SHA-256 over the UTF-8 of pieces in order, and UTF-8 lengths: what hashing canonical pieces
 * needs. The default is pure; the server passes node:crypto's, which takes strings as they are.
 */
export interface TextDigest {
  sha256(pieces: CanonicalPieces): string
  utf8Length(text: string): number
}

export const textDigest: TextDigest = {
  sha256(pieces) {
    const hash = sha256.create()
    for (const piece of pieces) hash.update(encoder.encode(piece))
    return bytesToHex(hash.digest())
  },
  utf8Length: (text) => utf8Length(text),
}

/** UTF-8 bytes of canonical pieces. */
export function piecesBytes(pieces: CanonicalPieces, digest: TextDigest = textDigest): number {
  let bytes = 0
  for (const piece of pieces) bytes += digest.utf8Length(piece)
  return bytes
}

/**
 * The revision of an array given its items' canonical pieces: equal to `computeRevision(items)`,
 * without serializing the items again (a prune hashes the content and then the survivors).
 */
export function revisionOfPieces(items: readonly CanonicalPieces[], digest: TextDigest = textDigest): Revision {
  const all: string[] = ['[']
  items.forEach((item, i) => {
    if (i > 0) all.push(',')
    for (const piece of item) all.push(piece)
  })
  all.push(']')
  return digest.sha256(all) as Revision
}

/** UTF-8 byte length of a string without allocating. Lone surrogates count as U+FFFD (3 bytes), as TextEncoder does. */
export function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/** Serialized size of a JSON value in UTF-8 bytes (JSON.stringify form, as stored), measured natively: megabytes are common. */
export const jsonBytes = (value: unknown): number => encoder.encode(JSON.stringify(value) ?? '').length

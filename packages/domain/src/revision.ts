import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import type { Revision } from './ids.js'

/** A synchronous SHA-256 over UTF-8 bytes returning lowercase hex. The server may pass node:crypto's. */
export type Sha256Hex = (bytes: Uint8Array) => string

const encoder = new TextEncoder()

export const sha256Hex: Sha256Hex = (bytes) => bytesToHex(sha256(bytes))

/**
 * Canonical JSON: object keys sorted by UTF-16 code units (plain `<`), entries whose value is
 * `undefined` dropped, array order kept, no whitespace. Everything else follows JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null'
  }
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ','
      const item: unknown = value[i]
      out += item === undefined || typeof item === 'function' ? 'null' : canonicalJson(item)
    }
    return out + ']'
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record).sort()
  let out = '{'
  let first = true
  for (const key of keys) {
    const item = record[key]
    if (item === undefined || typeof item === 'function') continue
    if (!first) out += ','
    first = false
    out += JSON.stringify(key) + ':' + canonicalJson(item)
  }
  return out + '}'
}

/**
 * The content revision the prune contract compares: SHA-256 hex of the canonical JSON of the
 * message content (2.x `data.content`, 1.x the parts in id order). Same answer in Node and browser.
 */
export function computeRevision(content: unknown, hash: Sha256Hex = sha256Hex): Revision {
  return hash(encoder.encode(canonicalJson(content))) as Revision
}

/** UTF-8 bytes of one array item's canonical JSON, for `revisionOfItems`. */
export const encodeCanonical = (item: unknown): Uint8Array =>
  encoder.encode(item === undefined || typeof item === 'function' ? 'null' : canonicalJson(item))

/**
 * The revision of an array given its items' canonical UTF-8 bytes: equal to `computeRevision(items)`,
 * without serializing the items again (a prune hashes the content and then the survivors).
 */
export function revisionOfItems(items: readonly Uint8Array[], hash: Sha256Hex = sha256Hex): Revision {
  let size = 2 + Math.max(0, items.length - 1)
  for (const item of items) size += item.length
  const out = new Uint8Array(size)
  let at = 0
  out[at++] = 0x5b
  items.forEach((item, i) => {
    if (i > 0) out[at++] = 0x2c
    out.set(item, at)
    at += item.length
  })
  out[at] = 0x5d
  return hash(out) as Revision
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

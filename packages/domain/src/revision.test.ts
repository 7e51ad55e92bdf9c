import fc from 'fast-check'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { canonicalJson, canonicalPieces, computeRevision, piecesBytes, revisionOfPieces, textDigest, utf8Length, type TextDigest } from './revision.js'
import vectors from './revision.vectors.json' with { type: 'json' }

const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const nodeDigest: TextDigest = {
  sha256(pieces) {
    const hash = createHash('sha256')
    for (const piece of pieces) hash.update(piece)
    return hash.digest('hex')
  },
  utf8Length: (text) => Buffer.byteLength(text),
}

describe('computeRevision', () => {
  it.each(vectors)('matches the golden vector: $name', ({ input, canonical, revision }) => {
    expect(canonicalJson(input)).toBe(canonical)
    expect(computeRevision(input)).toBe(revision)
    expect(computeRevision(input, nodeSha256)).toBe(revision)
  })

  it('sorts keys by UTF-16 code units, not code points', () => {
    const value = { '\uffff': 1, '\u{1F600}': 2 }
    expect(canonicalJson(value)).toBe('{"\u{1F600}":2,"\uffff":1}')
    // hash of that exact string computed independently (Python hashlib)
    expect(computeRevision(value)).toBe('48c5d098713870a7b88be7fc0ffc0a79e912d20f80ea8a4a5604426f49add103')
  })

  it('drops undefined entries and keeps array holes as null, like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}')
  })

  it('does not depend on key order (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse())
        expect(computeRevision(reversed)).toBe(computeRevision(record))
      }),
    )
  })

  it('round-trips through JSON.parse to the same value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })

  it('hashes an array from its items\' canonical pieces exactly as computeRevision does, with either digest (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (items) => {
        const pieces = items.map((item) => canonicalPieces(item))
        expect(revisionOfPieces(pieces)).toBe(computeRevision(items))
        expect(revisionOfPieces(pieces, nodeDigest)).toBe(computeRevision(items))
      }),
    )
  })

  it('keeps large strings as pieces of their own, and counts their UTF-8 bytes', () => {
    const big = 'é'.repeat(40_000)
    const value = { b: [1, big], a: 'x' }
    const pieces = canonicalPieces(value)
    expect(pieces).toEqual(['{"a":"x","b":[1,', JSON.stringify(big), ']}'])
    expect(pieces.join('')).toBe(canonicalJson(value))
    const bytes = new TextEncoder().encode(canonicalJson(value)).length
    expect(piecesBytes(pieces)).toBe(bytes)
    expect(piecesBytes(pieces, nodeDigest)).toBe(bytes)
    expect(textDigest.sha256(pieces)).toBe(computeRevision(value))
  })

  it('agrees with node:crypto for any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(computeRevision(value)).toBe(computeRevision(value, nodeSha256))
      }),
    )
  })
})

describe('utf8Length', () => {
  it('matches TextEncoder for any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length)
      }),
    )
  })
})

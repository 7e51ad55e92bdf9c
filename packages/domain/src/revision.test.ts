import fc from 'fast-check'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { canonicalJson, computeRevision, encodeCanonical, revisionOfItems, utf8Length } from './revision.js'
import vectors from './revision.vectors.json' with { type: 'json' }

const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

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

  it('hashes an array from its items\' canonical bytes exactly as computeRevision does (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (items) => {
        expect(revisionOfItems(items.map(encodeCanonical))).toBe(computeRevision(items))
      }),
    )
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

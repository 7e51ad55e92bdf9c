import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeBase64Url, encodeBase64Url } from './base64url.js'
import { bindScope, decodeCursor, encodeCursor } from './cursor.js'

type Payload = { after: number }
const isPayload = (p: unknown): p is Payload =>
  typeof p === 'object' && p !== null && typeof (p as Payload).after === 'number'

describe('encodeCursor/decodeCursor', () => {
  const binding = bindScope({ query: 'foo', sessionID: 'ses_1' })

  it('round-trips a payload when kind and binding match', () => {
    const cursor = encodeCursor('search', binding, { after: 41 })
    expect(decodeCursor(cursor, 'search', binding, isPayload)).toEqual({ ok: true, value: { after: 41 } })
  })

  it('answers conflict when the cursor was issued for another scope', () => {
    const cursor = encodeCursor('search', binding, { after: 41 })
    const other = bindScope({ query: 'bar', sessionID: 'ses_1' })
    expect(decodeCursor(cursor, 'search', other, isPayload)).toEqual({ ok: false, error: 'conflict' })
  })

  it.each([
    ['garbage', '%%%'],
    ['not json', encodeBase64Url('nope')],
    ['wrong kind', encodeCursor('gallery', 'x', { after: 1 })],
    ['bad payload', encodeCursor('search', 'x', { after: 'one' })],
    ['non-canonical base64', encodeBase64Url('{}') + 'A'],
  ])('rejects %s as invalid_cursor', (_name, cursor) => {
    expect(decodeCursor(cursor, 'search', 'x', isPayload)).toEqual({ ok: false, error: 'invalid_cursor' })
  })

  it('never throws on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = decodeCursor(text, 'search', binding, isPayload)
        expect(typeof result.ok).toBe('boolean')
      }),
    )
  })
})

describe('encodeBase64Url', () => {
  it('round-trips any string of well-formed UTF-16 (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(decodeBase64Url(encodeBase64Url(text))).toBe(text)
      }),
    )
  })
})

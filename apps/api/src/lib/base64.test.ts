import { isBase64Body } from '@loupe/domain'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isBase64BodyFast } from './base64.js'

describe('isBase64BodyFast', () => {
  it('agrees with the domain check on valid bodies and on every kind of corruption (property)', () => {
    const body = fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b).toString('base64'))
    const corrupt = fc.tuple(body, fc.nat(), fc.constantFrom('-', '_', ' ', '\n', '=', '!', 'é', '.', '\u0000')).map(([b, at, c]) => {
      const i = at % b.length
      return b.slice(0, i) + c + b.slice(i + 1)
    })
    fc.assert(
      fc.property(fc.oneof(body, corrupt, fc.string({ maxLength: 40 })), (text) => {
        expect(isBase64BodyFast(text)).toBe(isBase64Body(text) && text.length % 4 === 0)
      }),
      { numRuns: 2000 },
    )
  })
})

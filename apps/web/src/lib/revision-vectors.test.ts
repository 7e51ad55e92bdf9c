import { canonicalJson, computeRevision } from '@loupe/domain'
import { describe, expect, it } from 'vitest'
import vectors from '../../../../packages/domain/src/revision.vectors.json'

describe('computeRevision in the browser', () => {
  it('runs in happy-dom, not Node', () => {
    expect(typeof window).toBe('object')
    expect(navigator.userAgent).toMatch(/HappyDOM/)
  })

  it.each(vectors.map((v) => [v.name, v] as const))('agrees with the golden vector: %s', (_name, vector) => {
    expect(canonicalJson(vector.input)).toBe(vector.canonical)
    expect(computeRevision(vector.input)).toBe(vector.revision)
  })
})

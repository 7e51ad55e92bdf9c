import { describe, expect, it } from 'vitest'
import { idOfKey, keyBase, keyOfId, MAX_ID_TIME, newestIdAt, NO_DOC_ID, oldestIdAt, SLOTS } from './doc-id.js'

describe('document ids', () => {
  const T = Date.UTC(2026, 10, 29, 12)

  it('run newest first: a later millisecond, or a later slot of the same one, has a smaller id', () => {
    expect(idOfKey(keyBase(T + 1))).toBeLessThan(idOfKey(keyBase(T)))
    expect(idOfKey(keyBase(T) + 1)).toBeLessThan(idOfKey(keyBase(T)))
    expect(oldestIdAt(T + 1)).toBeLessThan(newestIdAt(T))
    expect(oldestIdAt(T) - newestIdAt(T)).toBe(SLOTS - 1)
    expect(keyOfId(idOfKey(keyBase(T) + 17))).toBe(T * SLOTS + 17)
  })

  it('stay safe non-negative integers for any time, clamping what they cannot hold', () => {
    for (const ms of [-5, 0, 1.7, T, MAX_ID_TIME, MAX_ID_TIME * 2, Number.MAX_VALUE]) {
      for (const id of [newestIdAt(ms), oldestIdAt(ms)]) {
        expect(Number.isSafeInteger(id)).toBe(true)
        expect(id).toBeGreaterThanOrEqual(0)
      }
    }
    expect(keyBase(-5)).toBe(0)
    expect(keyBase(MAX_ID_TIME * 2)).toBe(keyBase(MAX_ID_TIME))
    // An empty index's horizon lies past every id a document can have.
    expect(NO_DOC_ID).toBeGreaterThan(oldestIdAt(0))
  })
})

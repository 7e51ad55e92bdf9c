import { describe, expect, it } from 'vitest'
import {
  admitRow,
  countEntry,
  countRow,
  decodeGalleryCursor,
  emptyTally,
  encodeGalleryCursor,
  entryFits,
  fitEntries,
  galleryBinding,
  GALLERY_BUDGET,
  type GallerySlot,
} from './gallery-page.js'
import { relativeInside, resolveLexical, stemOf } from './location-path.js'

const MiB = 1024 * 1024
const slot = (role: 'assistant' | 'user', bytes = 1000, t = 1): GallerySlot => ({ key: { t, id: `msg_${t}` }, role, bytes })

describe('admitRow', () => {
  it('loads rows until 32 assistant rows, then stops before the 33rd', () => {
    let tally = emptyTally()
    for (let i = 0; i < 32; i++) {
      expect(admitRow(tally, slot('assistant'))).toBe('load')
      tally = countRow(tally, slot('assistant'))
    }
    expect(admitRow(tally, slot('assistant'))).toBe('stop')
    expect(admitRow(tally, slot('user'))).toBe('load')
  })

  it('stops before a row the 32 MiB stored budget refuses (it becomes the cursor)', () => {
    const tally = countRow(countRow(emptyTally(), slot('assistant', 15 * MiB)), slot('assistant', 15 * MiB))
    expect(admitRow(tally, slot('assistant', 2 * MiB))).toBe('load')
    expect(admitRow(tally, slot('assistant', 2 * MiB + 1))).toBe('stop')
  })

  it('answers blocked for a row over 16 MiB when it is the first row, and stops before it otherwise', () => {
    expect(admitRow(emptyTally(), slot('assistant', 16 * MiB))).toBe('load')
    expect(admitRow(emptyTally(), slot('assistant', 16 * MiB + 1))).toBe('blocked')
    expect(admitRow(countRow(emptyTally(), slot('user')), slot('assistant', 16 * MiB + 1))).toBe('stop')
  })

  it('caps user rows separately at 32', () => {
    let tally = emptyTally()
    for (let i = 0; i < 32; i++) tally = countRow(tally, slot('user'))
    expect(admitRow(tally, slot('user'))).toBe('stop')
  })
})

describe('entry budgets', () => {
  it('holds at most 64 entries', () => {
    expect(fitEntries(Array(100).fill(200))).toBe(64)
  })
  it('holds at most 1 MiB serialized, but always the first entry', () => {
    expect(fitEntries([600 * 1024, 600 * 1024])).toBe(1)
    expect(fitEntries([2 * MiB])).toBe(1)
    expect(entryFits(countEntry(emptyTally(), MiB - 10), 10)).toBe(true)
    expect(entryFits(countEntry(emptyTally(), MiB - 10), 11)).toBe(false)
    expect(GALLERY_BUDGET.serializedBytes).toBe(MiB)
  })
})

describe('gallery cursors', () => {
  const binding = galleryBinding({ storage: 'v2', sessionID: 'ses_1', boundary: null })
  const position = { through: { t: 90, id: 'msg_9' }, at: { t: 40, id: 'msg_4' }, offset: 3 }

  it('round-trip a position under the same binding', () => {
    expect(decodeGalleryCursor(encodeGalleryCursor(binding, position), binding)).toEqual({ ok: true, value: position })
  })

  it.each([
    ['another session', { storage: 'v2' as const, sessionID: 'ses_2', boundary: null }],
    ['another generation', { storage: 'v1' as const, sessionID: 'ses_1', boundary: null }],
    ['a revert boundary set since', { storage: 'v2' as const, sessionID: 'ses_1', boundary: 'msg_5' }],
  ])('conflict under %s', (_name, scope) => {
    expect(decodeGalleryCursor(encodeGalleryCursor(binding, position), galleryBinding(scope))).toEqual({ ok: false, error: 'conflict' })
  })

  it('refuses a malformed position', () => {
    const bad = encodeGalleryCursor(binding, { ...position, offset: -1 })
    expect(decodeGalleryCursor(bad, binding)).toEqual({ ok: false, error: 'invalid_cursor' })
  })
})

describe('lexical paths', () => {
  it.each([
    ['/p', 'out/hero.png', '/p/out/hero.png'],
    ['/p', './out/../out/hero.png', '/p/out/hero.png'],
    ['/p', '/abs/x.png', '/abs/x.png'],
    ['/p', '../../etc/passwd', '/etc/passwd'],
    ['/p', 'file:///p/a%20b.png', '/p/a b.png'],
    ['relative', 'x.png', undefined],
    ['/p', '', undefined],
  ])('resolve %s + %s', (dir, name, expected) => expect(resolveLexical(dir, name)).toBe(expected))

  it.each([
    ['/p', '/p/out/hero.png', 'out/hero.png'],
    ['/p/', '/p/x', 'x'],
    ['/p', '/pp/x', undefined],
    ['/p', '/p', undefined],
    ['/', '/x', 'x'],
  ])('relative of %s, %s', (dir, abs, expected) => expect(relativeInside(dir, abs)).toBe(expected))

  it.each([
    ['/p/out/hero.png', '/p/out/hero'],
    ['/p/out/hero', '/p/out/hero'],
    ['/p/.hidden', '/p/.hidden'],
    ['/p/a.b/c', '/p/a.b/c'],
  ])('stem of %s', (path, stem) => expect(stemOf(path)).toBe(stem))
})

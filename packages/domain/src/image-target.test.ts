import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeBase64Url } from './base64url.js'
import {
  decodeTarget,
  encodeTarget,
  estimateDataUriBytes,
  galleryMime,
  generationDigest,
  imageDigest,
  parseDataUri,
  type GalleryTarget,
} from './image-target.js'

const DIGEST = 'a'.repeat(64)
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

describe('encodeTarget/decodeTarget', () => {
  it.each<GalleryTarget>([
    { kind: 'image', source: 'read', messageID: 'msg_228e73', part: 2, index: 0, digest: DIGEST },
    { kind: 'image', source: 'pasted', messageID: 'msg_1', part: 0, index: 3, digest: DIGEST },
    { kind: 'generation', messageID: 'msg_1', part: 7, digest: DIGEST },
  ])('round-trips %o as an opaque URL-safe string', (target) => {
    const encoded = encodeTarget(target)
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeTarget(encoded)).toEqual({ ok: true, value: target })
  })

  it.each([
    ['empty', ''],
    ['not base64url', '../../etc/passwd'],
    ['an object', encodeBase64Url('{"kind":"image"}')],
    ['a foreign id', encodeBase64Url(JSON.stringify(['r', "msg'; DROP", 0, 0, DIGEST]))],
    ['a negative part', encodeBase64Url(JSON.stringify(['r', 'msg_1', -1, 0, DIGEST]))],
    ['a huge index', encodeBase64Url(JSON.stringify(['r', 'msg_1', 0, 1e9, DIGEST]))],
    ['an uppercase digest', encodeBase64Url(JSON.stringify(['r', 'msg_1', 0, 0, DIGEST.toUpperCase()]))],
    ['a generation with an index', encodeBase64Url(JSON.stringify(['g', 'msg_1', 0, 0, DIGEST]))],
    ['an unknown tag', encodeBase64Url(JSON.stringify(['x', 'msg_1', 0, 0, DIGEST]))],
  ])('refuses %s', (_name, encoded) => {
    expect(decodeTarget(encoded)).toEqual({ ok: false, error: 'invalid_target' })
  })

  it('never throws on arbitrary strings (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 2000 }), (s) => {
      expect(typeof decodeTarget(s).ok).toBe('boolean')
    }))
  })
})

describe('digests', () => {
  it('hashes the stored URI, so a replaced image gets another digest', () => {
    const a = imageDigest(`data:image/png;base64,${PNG_1PX}`)
    expect(a).toMatch(/^[a-f0-9]{64}$/)
    expect(imageDigest(`data:image/png;base64,${PNG_1PX.replace('A', 'B')}`)).not.toBe(a)
    // the same bytes under another declared type are another image
    expect(imageDigest(`data:image/webp;base64,${PNG_1PX}`)).not.toBe(a)
  })

  it('keys a generation by part id and job id with a separator', () => {
    expect(generationDigest('prt_1', 'job')).not.toBe(generationDigest('prt_1j', 'ob'))
    expect(generationDigest('prt_1', 'job')).toBe(generationDigest('prt_1', 'job'))
  })
})

describe('galleryMime', () => {
  it.each([
    ['image/png', 'image/png'],
    ['IMAGE/JPEG; charset=binary', 'image/jpeg'],
    ['image/avif', 'image/avif'],
    ['image/svg+xml', undefined],
    ['text/html', undefined],
    [42, undefined],
  ])('%s → %s', (input, expected) => expect(galleryMime(input)).toBe(expected))
})

describe('parseDataUri', () => {
  it('accepts a well-formed base64 data URI of a gallery type and sizes it', () => {
    expect(parseDataUri(`data:image/png;base64,${PNG_1PX}`)).toMatchObject({ mime: 'image/png', bytes: 70 })
    expect(estimateDataUriBytes(`data:image/png;base64,${PNG_1PX}`)).toBe(70)
  })
  it.each([
    ['a remote URL', 'https://example.com/a.png'],
    ['a file URL', 'file:///tmp/a.png'],
    ['an svg', `data:image/svg+xml;base64,${PNG_1PX}`],
    ['no base64 marker', `data:image/png,${PNG_1PX}`],
    ['an empty body', 'data:image/png;base64,'],
    ['a body of the wrong length', `data:image/png;base64,${PNG_1PX}A`],
    ['characters outside base64', `data:image/png;base64,${PNG_1PX.slice(0, -4)}<b>=`],
  ])('refuses %s', (_name, uri) => expect(parseDataUri(uri)).toBeUndefined())
})

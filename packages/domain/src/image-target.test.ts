import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeBase64Url } from './base64url.js'
import {
  decodeTarget,
  encodeTarget,
  estimateDataUriBytes,
  dataUriLength,
  EMBEDDED_URI_MAX,
  galleryMime,
  generationDigest,
  imageDigest,
  mediaRefImage,
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

describe('media refs, judged from the blob row alone', () => {
  it('sizes the data URL the native read form inlines, exactly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('image/png', 'image/jpeg', 'image/PNG; x=y'), (bytes, mime) => {
        const url = `data:${mime};base64,${btoa(String.fromCharCode(...bytes))}`
        expect(dataUriLength(mime, bytes.length)).toBe(url.length)
      }),
    )
  })

  it('is available when the blob is there, of the declared gallery type, and fits 8 MiB inlined', () => {
    expect(mediaRefImage('image/png', { size: 70, mime: 'image/png' })).toEqual({ available: true, bytes: 70 })
    expect(mediaRefImage('image/png', { size: 70, mime: 'IMAGE/PNG' })).toEqual({ available: true, bytes: 70 })
  })

  it.each([
    ['a missing blob (the ref stays as stored)', undefined, 0],
    ['a blob of another type than declared', { size: 70, mime: 'image/jpeg' }, 70],
    ['a blob of a non-gallery type', { size: 70, mime: 'image/svg+xml' }, 70],
    ['an empty blob', { size: 0, mime: 'image/png' }, 0],
  ])('is unavailable for %s', (_name, blob, bytes) => expect(mediaRefImage('image/png', blob)).toEqual({ available: false, bytes }))

  it('draws the size line where an embedded URI of the same bytes would', () => {
    let largest = Math.floor(((EMBEDDED_URI_MAX - 'data:image/png;base64,'.length) / 4) * 3)
    while (dataUriLength('image/png', largest) > EMBEDDED_URI_MAX) largest--
    expect(mediaRefImage('image/png', { size: largest, mime: 'image/png' }).available).toBe(true)
    expect(mediaRefImage('image/png', { size: largest + 1, mime: 'image/png' }).available).toBe(false)
  })
})

import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'
import { storeImagesAsBlobs } from '../../../test/fixtures/pruning/media-blobs.js'
import { withRaw } from '../../../test/fixtures/pruning/prune-helpers.js'
import { allPages, countBlobBytes, digestOf, images, refDigest, sha256 } from '../../../test/fixtures/gallery/media-gallery.js'
import { dataUri, makePng } from '../../../test/fixtures/gallery/png.js'
import { createV2GalleryDb, generateItem, readItem } from '../../../test/fixtures/gallery/v2-gallery-db.js'
import type { GalleryEntry, ImageEntry } from './gallery.schema.js'

const PHOTO = makePng(600, 400, 7)
const PASTED = makePng(4, 4, 1)
const JPEG = makePng(5, 5, 2) // declared and stored as image/jpeg: the type comes from the rows, never sniffed
const GONE = makePng(4, 4, 3)
const RETYPED = makePng(4, 4, 4)
const LIAR = makePng(4, 4, 5)
const SMALL = makePng(4, 4, 6)
const BIG = randomBytes(13 * 1024 * 1024) // inlined: a 17.3 MiB data URL, over the 16 MiB row limit
const ONE = makePng(40, 40, 8)
const TWO = makePng(40, 40, 9)
const HERO = makePng(4, 4, 10)
const DIR = '/work/project'

/** One 2.x file; built twice (same ids): kept inline, and moved to media blobs. */
function build(file: string) {
  const b = createV2GalleryDb(file)
  const main = b.session({ directory: DIR })
  b.user(main, { files: [{ uri: dataUri(PASTED), mime: 'image/png', name: 'pasted.png' }] })
  b.assistant(main, [
    readItem('call_1', `${DIR}/photo.png`, [dataUri(PHOTO)], 10, 20),
    readItem('call_2', `${DIR}/shot.jpg`, [dataUri(JPEG, 'image/jpeg')], 30, 40, 'image/jpeg'),
    generateItem({ id: 'call_3', status: 'completed', jobID: 'job', path: 'x', ran: 1, completed: 2 }),
    readItem('call_4', `${DIR}/gone.png`, [dataUri(GONE)], 50, 60),
    readItem('call_5', `${DIR}/retyped.png`, [dataUri(RETYPED)], 70, 80),
  ])
  const lying = b.session({ directory: DIR })
  b.assistant(lying, [readItem('call_6', `${DIR}/liar.png`, [dataUri(LIAR)], 10, 20)])
  const big = b.session({ directory: DIR })
  b.assistant(big, [readItem('call_7', `${DIR}/small.png`, [dataUri(SMALL)], 10, 20)])
  b.assistant(big, [readItem('call_8', `${DIR}/big.png`, [dataUri(BIG)], 30, 40)])
  const swap = b.session({ directory: DIR })
  b.assistant(swap, [readItem('call_9', `${DIR}/one.png`, [dataUri(ONE)], 10, 20)])
  b.assistant(swap, [readItem('call_10', `${DIR}/two.png`, [dataUri(TWO)], 30, 40)])
  // generation, its notice, then a read of the file it saved (gallery.provenance.test.ts "proven")
  const proven = b.session({ directory: DIR })
  b.user(proven, { text: 'make a hero image', time: 50 })
  b.assistant(proven, [generateItem({ id: 'call_gen_1', status: 'completed', prompt: 'hero', path: 'out/hero', jobID: 'job-1', ran: 100, completed: 110 })], { time: 90 })
  b.notice(proven, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
  b.assistant(proven, [readItem('call_read_1', `${DIR}/out/hero.png`, [dataUri(HERO)], 200, 210)], { time: 190 })
  b.close()
  return { main, lying, big, swap, proven }
}

describe('the gallery over media-blob storage (2.x)', () => {
  let plain: TestDeps
  let media: TestDeps
  let server: TestServer
  let ids: ReturnType<typeof build>
  let counter: ReturnType<typeof countBlobBytes>

  beforeAll(async () => {
    const dir = tempDir()
    ids = build(path.join(dir, 'plain.db'))
    const file = path.join(dir, 'media.db')
    build(file)
    storeImagesAsBlobs(file, 'v2')
    const db = new Database(file)
    db.pragma('foreign_keys = OFF')
    db.prepare(`DELETE FROM blob WHERE digest = ?`).run(sha256(GONE))
    db.prepare(`UPDATE blob SET mime = 'image/gif' WHERE digest = ?`).run(sha256(RETYPED))
    // The row still says a few dozen bytes; the data is 40 MiB, more than a whole page may read.
    db.prepare(`UPDATE blob SET data = zeroblob(40 * 1024 * 1024) WHERE digest = ?`).run(sha256(LIAR))
    db.close()
    plain = await createTestDeps(path.join(dir, 'plain.db'))
    media = await createTestDeps(file)
    fs.rmSync(dir, { recursive: true, force: true })
    counter = countBlobBytes(media)
    server = await startTestServer(media)
  })
  afterAll(async () => {
    await server?.close()
    plain?.cleanup()
    media?.cleanup()
  })

  const list = async (deps: TestDeps, sessionID: string) => allPages(createCaller({ deps }), sessionID)
  const url = (sessionID: string, entry: ImageEntry, query = '') => `/api/sessions/${sessionID}/images/${entry.target}${query}`

  it('lists ref-backed images as the inline file lists them: same entries, sizes and read-form budgets; targets bind the ref', async () => {
    const [inline] = await list(plain, ids.main)
    counter.reset()
    const [page] = await list(media, ids.main)
    expect(counter.read()).toBe(0)
    const strip = ({ target: _t, ...rest }: GalleryEntry) => rest
    const expected = inline!.entries.map((e) => {
      if (e.kind === 'image' && e.name === 'gone.png') return strip({ ...e, available: false, bytes: 0 })
      if (e.kind === 'image' && e.name === 'retyped.png') return strip({ ...e, available: false })
      return strip(e)
    })
    expect(page!.entries.map(strip)).toEqual(expected)
    expect(images(page!.entries).map(digestOf)).toEqual([PHOTO, JPEG, GONE, RETYPED, PASTED].map(refDigest))
    expect(images(page!.entries).find((e) => e.name === 'shot.jpg')).toMatchObject({ mime: 'image/jpeg', available: true, bytes: JPEG.length })
    // Read-form sizes from blob rows: the inline file's stored bytes, less the ref whose blob is gone.
    expect(page!.scanned.bytes).toBe(inline!.scanned.bytes - (dataUri(GONE).length - `media:${sha256(GONE)}`.length))
    const [swapInline] = await list(plain, ids.swap)
    expect((await list(media, ids.swap))[0]!.scanned).toEqual(swapInline!.scanned)
  })

  it('lists from the blob row, never its data: 40 MiB of data under a row that says a few dozen bytes lists within budget', async () => {
    counter.reset()
    const [page] = await list(media, ids.lying)
    expect(counter.read()).toBe(0)
    expect(page!.entries).toMatchObject([{ kind: 'image', name: 'liar.png', available: true, bytes: LIAR.length }])
    expect(page!.scanned.bytes).toBeLessThan(64 * 1024)
    // The byte route checks the row against its data before reading it, and refuses.
    expect((await server.fetch(url(ids.lying, page!.entries[0] as ImageEntry))).status).toBe(404)
  })

  it('measures the 16 MiB row limit on the read form: a blob that inlines past it blocks its row as the inline row does', async () => {
    const caller = createCaller({ deps: media })
    const blocked = await caller.gallery.images({ sessionID: ids.big })
    const inline = await createCaller({ deps: plain }).gallery.images({ sessionID: ids.big })
    expect(blocked).toMatchObject({ status: 'blocked', reason: 'limit' })
    expect(blocked).toEqual({ ...inline, resume: expect.any(String) })
    if (blocked.status !== 'blocked' || blocked.reason !== 'limit') throw new Error('unreachable')
    const rest = await caller.gallery.images({ sessionID: ids.big, cursor: blocked.resume! })
    expect(rest).toMatchObject({ status: 'page', entries: [{ name: 'small.png', available: true }], cursor: null })
  })

  it('serves bytes and thumbnails from blob.data, typed by the blob row, in one bounded read', async () => {
    const [page] = await list(media, ids.main)
    const named = (name: string) => images(page!.entries).find((e) => e.name === name)!
    counter.reset()
    const photo = await server.fetch(url(ids.main, named('photo.png')))
    expect(photo.status).toBe(200)
    expect(counter.read()).toBe(PHOTO.length)
    expect(Buffer.from(await photo.arrayBuffer()).equals(PHOTO)).toBe(true)
    expect(photo.headers.get('content-type')).toBe('image/png')
    expect(photo.headers.get('etag')).toBe(`"${refDigest(PHOTO)}"`)
    const jpeg = await server.fetch(url(ids.main, named('shot.jpg')))
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
    expect(Buffer.from(await jpeg.arrayBuffer()).equals(JPEG)).toBe(true)
    const pasted = await server.fetch(url(ids.main, named('pasted.png'), '?download=1'))
    expect(Buffer.from(await pasted.arrayBuffer()).equals(PASTED)).toBe(true)
    const thumb = await server.fetch(url(ids.main, named('photo.png'), '?size=256'))
    expect(thumb.status).toBe(200)
    expect(thumb.headers.get('content-type')).toBe('image/webp')
    const sharp = (await import('sharp')).default
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ width: 256, height: 171 })
    // a missing blob and a blob of another type than declared: nothing to serve
    expect((await server.fetch(url(ids.main, named('gone.png')))).status).toBe(404)
    expect((await server.fetch(url(ids.main, named('gone.png'), '?size=256'))).status).toBe(404)
    expect((await server.fetch(url(ids.main, named('retyped.png')))).status).toBe(404)
  })

  it('refuses a replaced ref or a replaced blob, even with a cached thumbnail: never a substitute', async () => {
    const before = images((await list(media, ids.swap))[0]!.entries)
    const one = before.find((e) => e.name === 'one.png')!
    const two = before.find((e) => e.name === 'two.png')!
    expect((await server.fetch(url(ids.swap, one, '?size=256'))).headers.get('x-loupe-thumbnail')).toBe('rendered')
    // "two" now names one's blob: its old target is gone; its new target is another image.
    withRaw(media, (db) => db.prepare(`UPDATE session_message SET data = replace(data, ?, ?) WHERE session_id = ?`).run(`media:${sha256(TWO)}`, `media:${sha256(ONE)}`, ids.swap))
    expect((await server.fetch(url(ids.swap, two))).status).toBe(404)
    const after = images((await list(media, ids.swap))[0]!.entries)
    expect(digestOf(after.find((e) => e.name === 'two.png')!)).toBe(refDigest(ONE))
    // one's blob now holds other bytes under the same digest: refused, the cached thumbnail included
    withRaw(media, (db) => db.prepare(`UPDATE blob SET data = ?, size = ? WHERE digest = ?`).run(TWO, TWO.length, sha256(ONE)))
    expect((await server.fetch(url(ids.swap, one))).status).toBe(404)
    expect((await server.fetch(url(ids.swap, one, '?size=256'))).status).toBe(404)
  })

  it('answers imageReference on ref-backed images by the inline rules', async () => {
    const caller = createCaller({ deps: media })
    const [page] = await list(media, ids.proven)
    const hero = images(page!.entries)[0]!
    expect(hero).toMatchObject({ origin: 'generated', available: true })
    expect(await caller.gallery.imageReference({ sessionID: ids.proven, target: hero.target })).toEqual({ status: 'reference', path: 'out/hero.png' })
    const [inline] = await list(plain, ids.proven)
    const stale = images(inline!.entries)[0]!.target // the data-URL target: not the image this file stores
    expect(await caller.gallery.imageReference({ sessionID: ids.proven, target: stale })).toEqual({ status: 'refused', reason: 'missing' })
    expect((await server.fetch(`/api/sessions/${ids.proven}/images/${stale}`)).status).toBe(404)
  })

  it('serves a ref-backed image through a share link', async () => {
    const created = await createCaller({ deps: media }).shares.create({ sessionID: ids.main, expiresIn: 3600 })
    const token = created.url.split('/s/')[1]!
    const page = (await (await server.fetch(`/api/shared/${token}/images`, { auth: false })).json()) as { entries: ImageEntry[] }
    const photo = page.entries.find((e) => e.name === 'photo.png')!
    expect(photo).toMatchObject({ available: true, bytes: PHOTO.length })
    const bytes = await server.fetch(`/api/shared/${token}/images/${photo.target}`, { auth: false })
    expect(bytes.status).toBe(200)
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PHOTO)).toBe(true)
    expect((await server.fetch(`/api/shared/${token}/images/${photo.target}?size=1024`, { auth: false })).status).toBe(200)
  })
})

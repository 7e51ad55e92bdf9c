import { encodeTarget } from '@loupe/domain'
import Database from 'better-sqlite3'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'
import { MEDIA_TABLES, moveImagesToBlobs, storeImagesAsBlobs } from '../../../test/fixtures/pruning/media-blobs.js'
import { allPages, countBlobBytes, images, refDigest, sha256 } from '../../../test/fixtures/gallery/media-gallery.js'
import { dataUri, makePng } from '../../../test/fixtures/gallery/png.js'
import { createV1GalleryDb, v1FilePart, v1ReadPart } from '../../../test/fixtures/gallery/v1-gallery-db.js'
import { createV2GalleryDb, readItem } from '../../../test/fixtures/gallery/v2-gallery-db.js'

const DIR = '/work/project'
const PHOTO = makePng(300, 200, 3)
const GONE = makePng(4, 4, 4)
const PASTED = makePng(4, 4, 5)
const INLINE = makePng(4, 4, 6)

describe('1.x media blobs: refs owned by parts, a missing blob', () => {
  let deps: TestDeps
  let server: TestServer
  let sessionID = ''

  beforeAll(async () => {
    const file = path.join(tempDir(), 'opencode.db')
    const b = createV1GalleryDb(file)
    sessionID = b.session({ directory: DIR })
    b.message(sessionID, 'user', [{ type: 'text', text: 'look' }, v1FilePart(dataUri(PASTED), 'pasted.png')])
    b.message(sessionID, 'assistant', [v1ReadPart(`${DIR}/photo.png`, [dataUri(PHOTO), dataUri(GONE)], 10, 20)])
    b.close()
    storeImagesAsBlobs(file, 'v1')
    const db = new Database(file)
    db.pragma('foreign_keys = OFF')
    db.prepare(`DELETE FROM blob WHERE digest = ?`).run(sha256(GONE))
    db.close()
    deps = await createTestDeps(file)
    server = await startTestServer(deps)
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })

  it('lists by blob rows only: the missing blob is the unavailable placeholder, the others are served', async () => {
    const counter = countBlobBytes(deps)
    const [page] = await allPages(createCaller({ deps }), sessionID)
    expect(counter.read()).toBe(0)
    const listed = images(page!.entries)
    expect(listed.map(({ source, mime, bytes, available }) => ({ source, mime, bytes, available }))).toEqual([
      { source: 'read', mime: 'image/png', bytes: PHOTO.length, available: true },
      { source: 'read', mime: 'image/png', bytes: 0, available: false },
      { source: 'pasted', mime: 'image/png', bytes: PASTED.length, available: true },
    ])
    const fetch = (i: number, query = '') => server.fetch(`/api/sessions/${sessionID}/images/${listed[i]!.target}${query}`)
    expect(Buffer.from(await (await fetch(0)).arrayBuffer()).equals(PHOTO)).toBe(true)
    expect(counter.read()).toBe(PHOTO.length)
    expect((await fetch(0, '?size=256')).headers.get('content-type')).toBe('image/webp')
    expect((await fetch(1)).status).toBe(404)
    expect(Buffer.from(await (await fetch(2, '?download=1')).arrayBuffer()).equals(PASTED)).toBe(true)
  })
})

/**
 * Ref-backed rows on a file whose blob tables are missing or of another shape: the native read form
 * cannot be built, so the gallery refuses them as `unsupported_storage` (HTTP 412); rows naming no
 * ref still list and serve.
 */
describe.each([
  ['v1', 'absent'],
  ['v1', 'unrecognized'],
  ['v2', 'absent'],
  ['v2', 'unrecognized'],
] as const)('%s storage with %s blob tables', (generation, tables) => {
  let deps: TestDeps
  let server: TestServer
  const ids = { refs: '', inline: '', target: '' }

  beforeAll(async () => {
    const file = path.join(tempDir(), 'opencode.db')
    if (generation === 'v1') {
      const b = createV1GalleryDb(file)
      ids.refs = b.session({ directory: DIR })
      const message = b.message(ids.refs, 'assistant', [v1ReadPart(`${DIR}/photo.png`, [dataUri(PHOTO)], 10, 20)])
      b.db.exec(MEDIA_TABLES)
      moveImagesToBlobs(b.db, 'v1')
      ids.inline = b.session({ directory: DIR })
      b.message(ids.inline, 'assistant', [v1ReadPart(`${DIR}/inline.png`, [dataUri(INLINE)], 10, 20)])
      ids.target = encodeTarget({ kind: 'image', source: 'read', messageID: message, part: 0, index: 0, digest: refDigest(PHOTO) })
      b.db.exec(tables === 'absent' ? `DROP TABLE blob_ref; DROP TABLE blob` : `DROP TABLE blob_ref; CREATE TABLE blob_ref (blob_id TEXT, session_id TEXT)`)
      b.close()
    } else {
      const b = createV2GalleryDb(file)
      ids.refs = b.session({ directory: DIR })
      const message = b.assistant(ids.refs, [readItem('call_1', `${DIR}/photo.png`, [dataUri(PHOTO)], 10, 20)])
      b.db.exec(MEDIA_TABLES)
      moveImagesToBlobs(b.db, 'v2')
      ids.inline = b.session({ directory: DIR })
      b.assistant(ids.inline, [readItem('call_2', `${DIR}/inline.png`, [dataUri(INLINE)], 10, 20)])
      // state.content = [text, file]: the image is file 1 of content item 0
      ids.target = encodeTarget({ kind: 'image', source: 'read', messageID: message, part: 0, index: 1, digest: refDigest(PHOTO) })
      b.db.exec(tables === 'absent' ? `DROP TABLE blob_ref; DROP TABLE blob` : `DROP TABLE blob_ref; CREATE TABLE blob_ref (blob_id TEXT, session_id TEXT)`)
      b.close()
    }
    deps = await createTestDeps(file)
    server = await startTestServer(deps)
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })

  it('refuses the ref-backed session as unsupported_storage: listing, bytes and references', async () => {
    const caller = createCaller({ deps })
    await expect(caller.gallery.images({ sessionID: ids.refs })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED', message: expect.stringMatching(/media refs/) })
    await expect(caller.gallery.imageReference({ sessionID: ids.refs, target: ids.target })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
    const res = await server.fetch(`/api/sessions/${ids.refs}/images/${ids.target}`)
    expect(res.status).toBe(412)
    expect(await res.json()).toMatchObject({ error: 'unsupported_storage' })
  })

  it('still lists and serves a session whose rows name no ref', async () => {
    const [page] = await allPages(createCaller({ deps }), ids.inline)
    const [entry] = images(page!.entries)
    expect(entry).toMatchObject({ name: 'inline.png', available: true, bytes: INLINE.length })
    const res = await server.fetch(`/api/sessions/${ids.inline}/images/${entry!.target}`)
    expect(Buffer.from(await res.arrayBuffer()).equals(INLINE)).toBe(true)
  })
})

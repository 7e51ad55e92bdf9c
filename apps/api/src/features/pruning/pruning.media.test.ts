import { computeRevision } from '@loupe/domain'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { collectMediaRefs, mediaSupport } from '../../store/media-blob.js'
import { diffSnapshots, snapshotDb } from '../../../test/fixtures/pruning/db-snapshot.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'
import { readMessage, withRaw } from '../../../test/fixtures/pruning/prune-helpers.js'
import { storeImagesAsBlobs } from '../../../test/fixtures/pruning/media-blobs.js'
import { buildV2Fixture } from '../../../test/fixtures/pruning/v2-fixture.js'

let V2_SESSION = ''
let V2_READ_IMAGE = '' // reasoning-0, read (an image, as a data URI)
let V2_USER = '' // the user's screenshot
let V1_SESSION = ''
let V1_READ_IMAGE = '' // step-start, reasoning, read (attachments[] data URL), step-finish
let TOUR = ''
let TOUR_MESSAGE = ''

const blobs = (db: Database.Database) => db.prepare(`SELECT digest FROM blob ORDER BY digest`).pluck().all() as string[]
const refs = (db: Database.Database) => db.prepare(`SELECT part_id || '/' || digest FROM blob_ref ORDER BY 1`).pluck().all() as string[]

describe('media-blob storage (media:<sha256> refs, blob, blob_ref)', () => {
  let real: string
  let deps: TestDeps | undefined
  const dirs: string[] = []
  beforeAll(async () => {
    const fixture = await realFixture()
    real = fixture.db
    const ids = fixtureIds(fixture.dir)
    ;({ image: V2_SESSION, imageRead: V2_READ_IMAGE, imageUser: V2_USER } = ids.v2)
    ;({ image: V1_SESSION, imageRead: V1_READ_IMAGE, tour: TOUR, tourMessage: TOUR_MESSAGE } = ids)
  })
  afterEach(() => {
    deps?.cleanup()
    deps = undefined
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  })
  const dir = () => {
    const d = tempDir()
    dirs.push(d)
    return d
  }

  it('2.x: previews the native read form, writes survivors as stored, releases only the removed item\'s refs and orphaned blobs', async () => {
    const plain = buildV2Fixture(real, path.join(dir(), 'plain.db'))
    const { file } = buildV2Fixture(real, path.join(dir(), 'opencode.db'), { media: true })
    // The read's image (`shared`) is also kept by another owner, so its blob must survive; a second
    // blob only the read names ('b'…) must go.
    const raw = new Database(file)
    const shared = raw.prepare(`SELECT digest FROM blob_ref WHERE part_id = ?`).pluck().get(V2_READ_IMAGE) as string
    raw.prepare(`INSERT INTO blob (digest, size, mime, data, created_at) VALUES (?, 3, 'image/png', x'010203', 1)`).run('b'.repeat(64))
    raw.prepare(`INSERT INTO blob_ref VALUES (?, 'extra', ?, 1)`).run(V2_READ_IMAGE, 'b'.repeat(64))
    raw.prepare(`UPDATE session_message SET data = json_set(data, '$.content[1].state.outputPaths', json_array('media:' || ?)) WHERE id = ?`).run('b'.repeat(64), V2_READ_IMAGE)
    raw.prepare(`INSERT INTO blob_ref VALUES ('msg_elsewhere', 'x', ?, 1)`).run(shared)
    raw.close()
    deps = await createTestDeps(file)
    expect(mediaSupport(deps.opencode.layout)).toBe('recognized')
    const caller = createCaller({ deps })
    const plainDeps = await createTestDeps(plain.file)
    try {
      const original = await readMessage(createCaller({ deps: plainDeps }), V2_SESSION, V2_USER, 'v2')
      expect((await readMessage(caller, V2_SESSION, V2_USER, 'v2')).message).toEqual(original.message)
    } finally {
      plainDeps.cleanup()
    }
    const before = await readMessage(caller, V2_SESSION, V2_READ_IMAGE, 'v2')
    expect(JSON.stringify(before.content)).toContain('data:image/png;base64,')
    const preview = await caller.pruning.preview({ sessionID: V2_SESSION, messageID: V2_READ_IMAGE })
    expect(preview).toMatchObject({ status: 'preview', revision: before.revision })
    const userRefs = withRaw(deps, (db) => db.prepare(`SELECT part_id || '/' || digest FROM blob_ref WHERE part_id = ?`).pluck().all(V2_USER))

    expect(await caller.pruning.prune({ sessionID: V2_SESSION, messageID: V2_READ_IMAGE, revision: before.revision, indexes: [1] })).toMatchObject({ status: 'pruned' })
    withRaw(deps, (db) => {
      expect(refs(db)).toEqual([...userRefs, `msg_elsewhere/${shared}`].sort())
      expect(blobs(db)).toContain(shared)
      expect(blobs(db)).not.toContain('b'.repeat(64))
      const stored = db.prepare(`SELECT data FROM session_message WHERE id = ?`).pluck().get(V2_READ_IMAGE) as string
      expect(collectMediaRefs(JSON.parse(stored)).size).toBe(0)
      expect(db.pragma('foreign_key_check')).toEqual([])
    })
    expect((await readMessage(caller, V2_SESSION, V2_READ_IMAGE, 'v2')).content).toEqual([before.content[0]])
  })

  it('1.x: refs owned by removed parts go with them; the native read form (and revision) is the original one', async () => {
    const file = copyDb(real, dir())
    const originalDeps = await createTestDeps(real)
    const original = await readMessage(createCaller({ deps: originalDeps }), V1_SESSION, V1_READ_IMAGE, 'v1')
    originalDeps.cleanup()
    storeImagesAsBlobs(file, 'v1')
    deps = await createTestDeps(file)
    const caller = createCaller({ deps })
    const before = await readMessage(caller, V1_SESSION, V1_READ_IMAGE, 'v1')
    expect(before.revision).toBe(original.revision)
    expect(before.revision).toBe(computeRevision(original.content))
    const toolIndex = before.content.findIndex((p) => (p as { type: string }).type === 'tool')
    const toolId = (before.content[toolIndex] as { id: string }).id
    const owned = withRaw(deps, (db) => db.prepare(`SELECT digest FROM blob_ref WHERE part_id = ?`).pluck().all(toolId) as string[])
    expect(owned.length).toBeGreaterThan(0)

    expect(await caller.pruning.prune({ sessionID: V1_SESSION, messageID: V1_READ_IMAGE, revision: before.revision, indexes: [toolIndex] })).toMatchObject({ status: 'pruned' })
    withRaw(deps, (db) => {
      expect(db.prepare(`SELECT count(*) FROM blob_ref WHERE part_id = ?`).pluck().get(toolId)).toBe(0)
      const remaining = new Set(blobs(db))
      for (const digest of owned) expect(remaining.has(digest)).toBe(db.prepare(`SELECT count(*) FROM blob_ref WHERE digest = ?`).pluck().get(digest) !== 0)
      expect(refs(db).length).toBeGreaterThan(0) // the user's pasted screenshot keeps its ref and blob
    })
  })

  it('fails closed on refs when the blob tables are of another shape, and passes rows without refs through', async () => {
    const file = copyDb(real, dir())
    storeImagesAsBlobs(file, 'v1')
    const db = new Database(file)
    db.exec(`DROP TABLE blob_ref; CREATE TABLE blob_ref (blob_id TEXT, session_id TEXT)`)
    db.close()
    deps = await createTestDeps(file)
    expect(mediaSupport(deps.opencode.layout)).toBe('unrecognized')
    const caller = createCaller({ deps })
    const withRef = await readMessage(caller, V1_SESSION, V1_READ_IMAGE, 'v1')
    const snapshot = snapshotDb(deps.opencode.path)
    expect(await caller.pruning.preview({ sessionID: V1_SESSION, messageID: V1_READ_IMAGE })).toMatchObject({ status: 'blocked', reason: 'unsupported_storage' })
    expect(await caller.pruning.prune({ sessionID: V1_SESSION, messageID: V1_READ_IMAGE, revision: withRef.revision, indexes: [1] })).toMatchObject({ status: 'blocked', reason: 'unsupported_storage' })
    expect(diffSnapshots(snapshot, snapshotDb(deps.opencode.path))).toEqual({ changed: [], added: [], removed: [] })
    const plain = await readMessage(caller, TOUR, TOUR_MESSAGE, 'v1')
    expect(await caller.pruning.prune({ sessionID: TOUR, messageID: TOUR_MESSAGE, revision: plain.revision, indexes: [1] }))
      .toMatchObject({ status: 'pruned' })
  })
})

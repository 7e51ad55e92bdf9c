import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'
import { storeImagesAsBlobs } from '../../../test/fixtures/pruning/media-blobs.js'
import { buildV2Fixture } from '../../../test/fixtures/pruning/v2-fixture.js'
import { countBlobBytes, digestOf, refDigest } from '../../../test/fixtures/gallery/media-gallery.js'
import type { GalleryEntry, GalleryPage } from './gallery.schema.js'

type Storage = 'v1' | 'v2'
type Page = Extract<GalleryPage, { status: 'page' }>

interface Twin {
  label: string
  inline: TestDeps
  media: TestDeps
  inlineServer: TestServer
  mediaServer: TestServer
  sessions: { id: string; storage: Storage }[]
}

function sessionsOf(file: string): { id: string; storage: Storage }[] {
  const db = new Database(file, { readonly: true })
  try {
    const tables = new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[])
    if (tables.has('session_v2')) return (db.prepare(`SELECT id FROM session_v2 ORDER BY id`).pluck().all() as string[]).map((id) => ({ id, storage: 'v2' }))
    const experimental = new Set(db.prepare(`SELECT DISTINCT session_id FROM session_message`).pluck().all() as string[])
    return (db.prepare(`SELECT id FROM session ORDER BY id`).pluck().all() as string[]).map((id) => ({ id, storage: experimental.has(id) ? 'v2' : 'v1' }))
  } finally {
    db.close()
  }
}

async function twin(label: string, inlineFile: string, mediaFile: string): Promise<Twin> {
  const inline = await createTestDeps(inlineFile)
  const media = await createTestDeps(mediaFile)
  return { label, inline, media, inlineServer: await startTestServer(inline), mediaServer: await startTestServer(media), sessions: sessionsOf(inlineFile) }
}

async function pagesOf(deps: TestDeps, sessionID: string, storage: Storage): Promise<Page[]> {
  const caller = createCaller({ deps })
  const pages: Page[] = []
  for (let cursor: string | undefined, i = 0; i < 20; i++) {
    const page = await caller.gallery.images({ sessionID, storage, ...(cursor ? { cursor } : {}) })
    if (page.status !== 'page') throw new Error(JSON.stringify(page))
    pages.push(page)
    if (!page.cursor) break
    cursor = page.cursor
  }
  return pages
}

const strip = ({ target: _t, ...rest }: GalleryEntry) => rest

/**
 * The real OpenCode 1.18.33 histories, stored the media-blob way (test/fixtures/pruning/media-blobs.ts):
 * the 1.18 file itself (1.x parts and the experimental 2.x rows) and the 2.x file built from it.
 * Each gallery must be the inline one, entry for entry and byte for byte, with ref-bound targets.
 */
describe('the gallery over the real fixture stored as media blobs (both generations)', () => {
  const twins: Twin[] = []
  let dir: string

  beforeAll(async () => {
    const fixture = await realFixture()
    dir = tempDir()
    const mediaV1 = copyDb(fixture.db, fs.mkdtempSync(path.join(dir, 'v1-')))
    storeImagesAsBlobs(mediaV1, 'v1', 'v2')
    twins.push(await twin('1.18 file', fixture.db, mediaV1))
    const plainV2 = buildV2Fixture(fixture.db, path.join(dir, 'plain-v2.db'))
    const mediaV2 = buildV2Fixture(fixture.db, path.join(dir, 'media-v2.db'), { media: true })
    twins.push(await twin('2.x file', plainV2.file, mediaV2.file))
  })
  afterAll(async () => {
    for (const t of twins) {
      await t.inlineServer.close()
      await t.mediaServer.close()
      t.inline.cleanup()
      t.media.cleanup()
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('lists every session as its inline twin does, reading no blob data, and serves the same bytes and thumbnails', async () => {
    const served: Record<string, number> = {}
    for (const t of twins) {
      const counter = countBlobBytes(t.media)
      for (const s of t.sessions) {
        const inline = await pagesOf(t.inline, s.id, s.storage)
        counter.reset()
        const media = await pagesOf(t.media, s.id, s.storage)
        expect(counter.read(), `${t.label} ${s.id}`).toBe(0)
        expect(media.map((p) => p.entries.map(strip)), `${t.label} ${s.id}`).toEqual(inline.map((p) => p.entries.map(strip)))
        // The read-form sizes measured from blob rows equal the inline file's stored sizes.
        expect(media.map((p) => p.scanned)).toEqual(inline.map((p) => p.scanned))
        const pairs = media.flatMap((p) => p.entries).map((e, i) => [e, inline.flatMap((p) => p.entries)[i]!] as const)
        for (const [m, i] of pairs) {
          if (m.kind !== 'image') continue
          const want = Buffer.from(await (await t.inlineServer.fetch(`/api/sessions/${s.id}/images/${i.target}?storage=${s.storage}`)).arrayBuffer())
          const res = await t.mediaServer.fetch(`/api/sessions/${s.id}/images/${m.target}?storage=${s.storage}`)
          expect(res.status).toBe(200)
          expect(Buffer.from(await res.arrayBuffer()).equals(want)).toBe(true)
          expect(digestOf(m)).toBe(refDigest(want))
          expect((await t.mediaServer.fetch(`/api/sessions/${s.id}/images/${m.target}?storage=${s.storage}&size=256`)).status).toBe(200)
          served[`${t.label} ${s.storage}`] = (served[`${t.label} ${s.storage}`] ?? 0) + 1
        }
      }
    }
    // Both generations of the 1.18 file and the 2.x file had ref-backed images to serve.
    expect(Object.keys(served).sort()).toEqual(['1.18 file v1', '1.18 file v2', '2.x file v2'])
  })

  it('answers imageReference on ref-backed images exactly as on their inline twins', async () => {
    let compared = 0
    for (const t of twins) {
      for (const s of t.sessions) {
        const inline = (await pagesOf(t.inline, s.id, s.storage)).flatMap((p) => p.entries)
        const media = (await pagesOf(t.media, s.id, s.storage)).flatMap((p) => p.entries)
        for (const [k, m] of media.entries()) {
          const ask = (deps: TestDeps, target: string) => createCaller({ deps }).gallery.imageReference({ sessionID: s.id, storage: s.storage, target })
          expect(await ask(t.media, m.target)).toEqual(await ask(t.inline, inline[k]!.target))
          compared++
        }
      }
    }
    expect(compared).toBeGreaterThan(0)
  })
})

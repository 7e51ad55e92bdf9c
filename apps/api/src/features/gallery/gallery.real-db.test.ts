import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type RealFixture, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'
import { dataUri, makePng } from '../../../test/fixtures/gallery/png.js'
import type { GalleryEntry } from './gallery.schema.js'

type Json = Record<string, any>
const readJsonDir = (dir: string): Json[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Json) : []
const isImage = (mime: unknown) => typeof mime === 'string' && /^image\/(png|jpeg|gif|webp|avif)$/.test(mime)

/** What OpenCode's own export says the gallery must hold, newest first: [source, data URL]. */
function expectedV1(exported: Json): [string, string][] {
  const out: [string, string][] = []
  for (const m of exported.messages) {
    const rows: [string, string][] = []
    for (const p of m.parts) {
      if (m.info.role === 'user' && p.type === 'file' && isImage(p.mime)) rows.push(['pasted', p.url])
      if (m.info.role === 'assistant' && p.type === 'tool' && p.tool === 'read')
        for (const a of p.state.attachments ?? []) if (isImage(a.mime)) rows.push(['read', a.url])
    }
    out.unshift(...rows)
  }
  return out
}

function expectedV2(exported: Json): [string, string][] {
  const out: [string, string][] = []
  for (const m of exported.messages) {
    const rows: [string, string][] = []
    if (m.type === 'user') for (const f of m.files ?? []) if (isImage(f.mime)) rows.push(['pasted', f.uri])
    if (m.type === 'assistant')
      for (const c of m.content ?? [])
        if (c.type === 'tool' && c.name === 'read') for (const f of c.state.content ?? []) if (f.type === 'file' && isImage(f.mime)) rows.push(['read', f.uri])
    out.unshift(...rows)
  }
  return out
}

describe('the gallery over a real OpenCode 1.18.33 database (image scenarios)', () => {
  let fixture: RealFixture
  let deps: TestDeps
  let server: TestServer
  let caller: ReturnType<typeof createCaller>
  let exports: { storage: 'v1' | 'v2'; id: string; directory: string; expected: [string, string][] }[]

  beforeAll(async () => {
    fixture = await realFixture()
    deps = await createTestDeps(fixture.db)
    caller = createCaller({ deps })
    server = await startTestServer(deps)
    exports = [
      ...readJsonDir(fixture.sessionsDir).map((e) => ({ storage: 'v1' as const, id: e.info.id, directory: e.info.directory, expected: expectedV1(e) })),
      ...readJsonDir(fixture.sessionsV2Dir).map((e) => ({ storage: 'v2' as const, id: e.info.id, directory: e.info.directory ?? e.info.location?.directory, expected: expectedV2(e) })),
    ]
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })

  const page = async (sessionID: string, storage: 'v1' | 'v2') => {
    const p = await caller.gallery.images({ sessionID, storage })
    if (p.status !== 'page') throw new Error(JSON.stringify(p))
    return p
  }

  it('lists exactly the images OpenCode exports for every session of both generations', async () => {
    expect(exports.filter((e) => e.expected.length > 0).map((e) => e.storage).sort()).toEqual(['v1', 'v2'])
    for (const e of exports) {
      const p = await page(e.id, e.storage)
      expect(p.cursor).toBeNull()
      expect(p.entries.map((x) => x.kind === 'image' && x.source)).toEqual(e.expected.map(([source]) => source))
      for (const entry of p.entries) expect(entry).toMatchObject({ kind: 'image', origin: 'unverifiable', available: true, mime: 'image/png' })
    }
  })

  it('serves the exact bytes: the read equals the PNG in the project, the paste equals the uploaded file', async () => {
    for (const e of exports.filter((x) => x.expected.length > 0)) {
      const p = await page(e.id, e.storage)
      for (const [i, entry] of p.entries.entries()) {
        const res = await server.fetch(`/api/sessions/${e.id}/images/${entry.target}?storage=${e.storage}`)
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toBe('image/png')
        const body = Buffer.from(await res.arrayBuffer())
        const [source, url] = e.expected[i]!
        expect(body.equals(Buffer.from(url.split(',')[1]!, 'base64'))).toBe(true)
        if (source === 'read') {
          const project = path.join(fixture.dir, 'projects', path.basename(e.directory))
          expect(body.equals(fs.readFileSync(path.join(project, 'docs', 'architecture.png')))).toBe(true)
        }
      }
    }
  })

  it('references the read as docs/architecture.png and refuses the pasted one as not-gallery', async () => {
    for (const e of exports.filter((x) => x.expected.length > 0)) {
      const p = await page(e.id, e.storage)
      const answers = await Promise.all(p.entries.map((x) => caller.gallery.imageReference({ sessionID: e.id, storage: e.storage, target: x.target })))
      expect(answers).toEqual(
        p.entries.map((x) => (x.kind === 'image' && x.source === 'read' ? { status: 'reference', path: 'docs/architecture.png' } : { status: 'refused', reason: 'not-gallery' })),
      )
    }
  })

  it('refuses a target whose image was replaced (digest) or removed, and lists the new image instead', async () => {
    const e = exports.find((x) => x.storage === 'v1' && x.expected.length > 0)!
    const before = (await page(e.id, 'v1')).entries.find((x): x is Extract<GalleryEntry, { kind: 'image' }> => x.kind === 'image' && x.source === 'read')!
    const db = deps.opencode.db.raw
    const row = db.prepare(`SELECT id, data FROM part WHERE message_id = ? AND json_extract(data, '$.tool') = 'read'`).get(before.messageID) as { id: string; data: string }
    const replaced = JSON.parse(row.data)
    replaced.state.attachments[0].url = dataUri(makePng(5, 5, 42))
    db.prepare(`UPDATE part SET data = ? WHERE id = ?`).run(JSON.stringify(replaced), row.id)
    try {
      expect((await server.fetch(`/api/sessions/${e.id}/images/${before.target}`)).status).toBe(404)
      expect(await caller.gallery.imageReference({ sessionID: e.id, target: before.target })).toEqual({ status: 'refused', reason: 'missing' })
      const after = (await page(e.id, 'v1')).entries.find((x) => x.kind === 'image' && x.source === 'read')!
      expect(after.target).not.toBe(before.target)
      expect((await server.fetch(`/api/sessions/${e.id}/images/${after.target}`)).status).toBe(200)
      db.prepare(`DELETE FROM part WHERE id = ?`).run(row.id)
      expect((await server.fetch(`/api/sessions/${e.id}/images/${after.target}`)).status).toBe(404)
    } finally {
      db.prepare(`INSERT OR REPLACE INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 0, 0, ?)`).run(row.id, before.messageID, e.id, row.data)
    }
  })

  it('hides images at and after a staged revert boundary', async () => {
    const e = exports.find((x) => x.storage === 'v2' && x.expected.length > 0)!
    const entries = (await page(e.id, 'v2')).entries
    const read = entries.find((x) => x.kind === 'image' && x.source === 'read')!
    const db = deps.opencode.db.raw
    db.prepare(`UPDATE session SET revert = ? WHERE id = ?`).run(JSON.stringify({ messageID: read.messageID }), e.id)
    try {
      expect((await page(e.id, 'v2')).entries.map((x) => x.kind === 'image' && x.source)).toEqual(['pasted'])
      expect((await server.fetch(`/api/sessions/${e.id}/images/${read.target}?storage=v2`)).status).toBe(404)
    } finally {
      db.prepare(`UPDATE session SET revert = NULL WHERE id = ?`).run(e.id)
    }
  })
})

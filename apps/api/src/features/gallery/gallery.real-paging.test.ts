import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'
import { ensureGalleryFixture, type GalleryFixture } from '../../../test/fixtures/gallery/real-gallery.mjs'
import type { GalleryPage, ImageEntry } from './gallery.schema.js'

type Page = Extract<GalleryPage, { status: 'page' }>

/**
 * Paging rules on a history real OpenCode wrote: 34 model steps that read 36 PNGs (three in one
 * step), after the user pasted two screenshots: 35 assistant messages, so two pages.
 */
describe.each(['v1', 'v2'] as const)('gallery pages of a real OpenCode session with 38 images (%s)', (storage) => {
  let fixture: GalleryFixture
  let deps: TestDeps
  let server: TestServer
  let pages: Page[]
  let sessionID: string

  beforeAll(async () => {
    fixture = await ensureGalleryFixture()
    sessionID = fixture[storage]
    deps = await createTestDeps(fixture.db)
    server = await startTestServer(deps)
    const caller = createCaller({ deps })
    pages = []
    for (let cursor: string | undefined, guard = 0; guard < 10; guard++) {
      const page = await caller.gallery.images({ sessionID, storage, ...(cursor ? { cursor } : {}) })
      if (page.status !== 'page') throw new Error(JSON.stringify(page))
      pages.push(page)
      if (!page.cursor) break
      cursor = page.cursor
    }
  }, 600_000)
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })

  it('pages 32 assistant messages at a time, newest first, every image once', () => {
    const entries = pages.flatMap((p) => p.entries) as ImageEntry[]
    // the answer and steps 33..3 (step 10 read three files) fill the first page; steps 2..0 and the pastes follow
    expect(pages.map((p) => p.entries.length)).toEqual([33, 5])
    const steps = Array.from({ length: 34 }, (_, i) => 33 - i).flatMap((k) => (k === 10 ? [10, 34, 35] : [k]))
    expect(entries.map((e) => e.name)).toEqual([...steps.map((k) => `${k}.png`), 'pasted-0.png', 'pasted-1.png'])
    expect(entries.map((e) => e.source)).toEqual([...steps.map(() => 'read'), 'pasted', 'pasted'])
    expect(new Set(entries.map((e) => e.target)).size).toBe(38)
  })

  it('serves each image byte for byte as the file OpenCode read', async () => {
    for (const entry of pages.flatMap((p) => p.entries) as ImageEntry[]) {
      const res = await server.fetch(`/api/sessions/${sessionID}/images/${entry.target}?storage=${storage}`)
      expect(res.status).toBe(200)
      const body = Buffer.from(await res.arrayBuffer())
      if (entry.source === 'read') expect(body.equals(fs.readFileSync(path.join(fixture.project, 'shots', entry.name!)))).toBe(true)
      else expect(body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
    }
  })

  it('references every read by its path in the project', async () => {
    const caller = createCaller({ deps })
    const reads = (pages.flatMap((p) => p.entries) as ImageEntry[]).filter((e) => e.source === 'read')
    const answers = await Promise.all(reads.map((e) => caller.gallery.imageReference({ sessionID, storage, target: e.target })))
    // the newest 32 assistant messages must reach the item: the three oldest steps are too far back
    expect(answers).toEqual(reads.map((e) => (['0.png', '1.png', '2.png'].includes(e.name!) ? { status: 'refused', reason: 'unverifiable' } : { status: 'reference', path: `shots/${e.name}` })))
  })
})

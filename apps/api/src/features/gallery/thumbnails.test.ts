import { decodeTarget } from '@loupe/domain'
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createCaller, tempDir } from '../../../test/harness.js'
import { serveRealFixture } from '../../../test/server.js'
import { sha256Bytes } from '../../lib/hash.js'
import { makePng } from '../../../test/fixtures/gallery/png.js'
import type { ImageEntry } from './gallery.schema.js'
import { createThumbnailer } from './thumbnails.js'

const cacheFiles = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.webp')).map((f) => path.join(dir, f)) : []
const cacheBytes = (dir: string) => cacheFiles(dir).reduce((sum, f) => sum + fs.statSync(f).size, 0)

describe('thumbnail cache', () => {
  it('stays under its byte budget, dropping the oldest thumbnails first', async () => {
    const dir = tempDir()
    const pngs = Array.from({ length: 12 }, (_, i) => makePng(300, 200, i + 1))
    const one = (await createThumbnailer(tempDir()).get(sha256Bytes(pngs[0]!), 256, () => pngs[0]!)).body.length
    const budget = one * 5
    const thumbnails = createThumbnailer(dir, budget)
    for (const [i, png] of pngs.entries()) {
      await thumbnails.get(sha256Bytes(png), 256, () => png)
      // Distinct mtimes, so "oldest" is well defined on coarse file systems.
      const file = cacheFiles(dir).find((f) => f.includes(sha256Bytes(png)))!
      fs.utimesSync(file, new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000))
      expect(cacheBytes(dir)).toBeLessThanOrEqual(budget)
    }
    const left = pngs.filter((png) => thumbnails.cached(sha256Bytes(png), 256))
    expect(left.length).toBeGreaterThan(0)
    // What is left is the newest run of thumbnails: nothing older survives a newer one's eviction.
    expect(left).toEqual(pngs.slice(pngs.length - left.length))
  })

  it('forgets every size of a digest, and ignores what is not a digest', async () => {
    const dir = tempDir()
    const thumbnails = createThumbnailer(dir)
    const png = makePng(1200, 800, 3)
    const digest = sha256Bytes(png)
    await thumbnails.get(digest, 256, () => png)
    await thumbnails.get(digest, 1024, () => png)
    expect(cacheFiles(dir)).toHaveLength(2)
    thumbnails.forget(['../../etc', digest])
    expect(cacheFiles(dir)).toHaveLength(0)
    expect(thumbnails.cached(digest, 256)).toBeUndefined()
  })
})

describe('pruning an image read', () => {
  const served = serveRealFixture()
  let sessionID: string

  beforeAll(() => {
    sessionID = (served.deps.opencode.db.raw.prepare(`SELECT id FROM session WHERE title = 'Screenshot vs architecture diagram'`).get() as { id: string }).id
  })

  it('removes the thumbnails of the pruned image and keeps the pasted one', async () => {
    const caller = createCaller({ deps: served.deps })
    const page = await caller.gallery.images({ sessionID })
    if (page.status !== 'page') throw new Error(`gallery: ${page.status}`)
    const images = page.entries.filter((e): e is ImageEntry => e.kind === 'image')
    const read = images.find((e) => e.source === 'read')!
    const pasted = images.find((e) => e.source === 'pasted')!
    const thumbDir = path.join(served.deps.config.dataDir, 'thumbnails')
    const cachedFor = (entry: ImageEntry) => {
      const target = decodeTarget(entry.target)
      if (!target.ok) throw new Error('bad target')
      return cacheFiles(thumbDir).filter((f) => path.basename(f).startsWith(target.value.digest))
    }
    for (const entry of [read, pasted]) {
      expect((await served.server.fetch(`/api/sessions/${sessionID}/images/${entry.target}?size=256`)).status).toBe(200)
      expect(cachedFor(entry)).toHaveLength(1)
    }

    const preview = await caller.pruning.preview({ sessionID, messageID: read.messageID! })
    if (preview.status !== 'preview') throw new Error(`preview: ${preview.status}`)
    expect(preview.parts.map((p) => p.index)).toContain(read.part)
    const result = await caller.pruning.prune({ sessionID, messageID: read.messageID!, revision: preview.revision, indexes: [read.part!] })
    expect(result.status).toBe('pruned')

    expect(cachedFor(read)).toEqual([])
    expect(cachedFor(pasted)).toHaveLength(1)
    expect((await served.server.fetch(`/api/sessions/${sessionID}/images/${read.target}?size=256`)).status).toBeGreaterThanOrEqual(400)
  })
})

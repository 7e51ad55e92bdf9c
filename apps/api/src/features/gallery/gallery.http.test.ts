import fs from 'node:fs'
import { request } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, TEST_TOKEN, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'
import { bombPng, dataUri, makePng } from '../../../test/fixtures/gallery/png.js'
import { createV2GalleryDb, generateItem, readItem } from '../../../test/fixtures/gallery/v2-gallery-db.js'
import type { GalleryEntry } from './gallery.schema.js'

/** Image bytes and thumbnails over a real server: membership, headers, caching, decode bounds. */
describe('GET /api/sessions/:sessionID/images/:target', () => {
  let deps: TestDeps
  let server: TestServer
  const ids: Record<string, string> = {}
  const entries: Record<string, GalleryEntry[]> = {}
  const photo = makePng(600, 400, 7)

  beforeAll(async () => {
    const file = path.join(tempDir(), 'opencode.db')
    const b = createV2GalleryDb(file)
    ids.main = b.session({ directory: '/work/project' })
    b.user(ids.main, { files: [{ uri: dataUri(makePng(4, 4, 1)), mime: 'image/png', name: 'pasted shot.png' }] })
    b.assistant(ids.main, [
      readItem('call_1', '/work/project/docs/photo.png', [dataUri(photo)], 10, 20),
      readItem('call_2', '/work/project/bomb.png', [dataUri(bombPng())], 30, 40),
      readItem('call_3', '/work/project/fake.png', [dataUri(Buffer.from('this is not a png at all'))], 50, 60),
      { type: 'tool', id: 'call_4', name: 'webfetch', state: { status: 'completed', input: {}, content: [{ type: 'file', uri: dataUri(makePng(2, 2, 9)), mime: 'image/png' }] } },
      generateItem({ id: 'call_5', status: 'completed', jobID: 'job', path: 'x', ran: 1, completed: 2 }),
    ])
    ids.other = b.session({ directory: '/work/project' })
    b.assistant(ids.other, [readItem('call_9', '/work/project/other.png', [dataUri(makePng(4, 4, 3))], 10, 20)])
    b.close()
    deps = await createTestDeps(file)
    server = await startTestServer(deps)
    const caller = createCaller({ deps })
    for (const key of ['main', 'other']) {
      const page = await caller.gallery.images({ sessionID: ids[key]! })
      entries[key] = page.status === 'page' ? page.entries : []
    }
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })

  const url = (entry: GalleryEntry, query = '', session = ids.main!) => `/api/sessions/${session}/images/${entry.target}${query}`
  const named = (name: string) => entries.main!.find((e) => e.kind === 'image' && e.name === name)!

  it('lists only gallery images (not a webfetch file) plus the generation', () => {
    expect(entries.main!.map((e) => (e.kind === 'image' ? e.name : e.kind))).toEqual(['photo.png', 'bomb.png', 'fake.png', 'generation', 'pasted shot.png'])
  })

  it('streams the bytes with the type, an ETag, revalidating cache headers and a sandbox', async () => {
    const res = await server.fetch(url(named('photo.png')))
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(photo)).toBe(true)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('cache-control')).toBe('private, no-cache')
    expect(res.headers.get('etag')).toMatch(/^"[a-f0-9]{64}"$/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toContain('sandbox')
    expect(res.headers.get('content-disposition')).toBe('inline; filename="photo.png"')
    const again = await server.fetch(url(named('photo.png')), { headers: { 'if-none-match': res.headers.get('etag')! } })
    expect(again.status).toBe(304)
    const download = await server.fetch(url(named('pasted shot.png'), '?download=1'))
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="pasted_shot.png"')
  })

  it('renders thumbnails once (256 and 1024 px, webp) into the data dir, keyed by digest, then serves the cache', async () => {
    const first = await server.fetch(url(named('photo.png'), '?size=256'))
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('image/webp')
    expect(first.headers.get('x-loupe-thumbnail')).toBe('rendered')
    const sharp = (await import('sharp')).default
    expect(await sharp(Buffer.from(await first.arrayBuffer())).metadata()).toMatchObject({ width: 256, height: 171, format: 'webp' })
    const second = await server.fetch(url(named('photo.png'), '?size=256'))
    expect(second.headers.get('x-loupe-thumbnail')).toBe('cached')
    const large = await server.fetch(url(named('photo.png'), '?size=1024'))
    // never enlarged beyond the original
    expect(await sharp(Buffer.from(await large.arrayBuffer())).metadata()).toMatchObject({ width: 600, height: 400 })
    const digest = /"([a-f0-9]{64})-256"/.exec(first.headers.get('etag')!)![1]!
    expect(fs.existsSync(path.join(deps.config.dataDir, 'thumbnails', digest.slice(0, 2), `${digest}-256.webp`))).toBe(true)
  })

  it('refuses a decompression bomb from its header, before decoding, and keeps serving', async () => {
    const root = path.join(deps.config.dataDir, 'thumbnails')
    const files = () => (fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).length : 0)
    const before = files()
    const res = await server.fetch(url(named('bomb.png'), '?size=256'))
    expect(res.status).toBe(413)
    expect(((await res.json()) as { message: string }).message).toMatch(/20000×20000.*too large to preview/)
    expect(files()).toBe(before)
    // the bytes themselves can still be downloaded; the server is fine
    expect((await server.fetch(url(named('bomb.png'), '?download=1'))).status).toBe(200)
    expect((await server.fetch(url(named('photo.png'), '?size=256'))).status).toBe(200)
  })

  it('answers 503 for bytes that are not an image, without crashing', async () => {
    expect((await server.fetch(url(named('fake.png'), '?size=256'))).status).toBe(503)
  })

  it('refuses what is not a gallery image of this session', async () => {
    const generation = entries.main!.find((e) => e.kind === 'generation')!
    expect((await server.fetch(url(generation))).status).toBe(403)
    // another session's image through this session's URL: not here
    expect((await server.fetch(url(entries.other![0]!))).status).toBe(404)
    expect((await server.fetch(`/api/sessions/${ids.main}/images/not-a-target`)).status).toBe(400)
    expect((await server.fetch(url(named('photo.png'), '?size=4096'))).status).toBe(400)
    expect((await server.fetch(`/api/sessions/ses_nope/images/${named('photo.png').target}`)).status).toBe(404)
  })

  it('is behind the owner token and the host guard', async () => {
    expect((await server.fetch(url(named('photo.png')), { auth: false })).status).toBe(401)
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: url(named('photo.png')), headers: { authorization: `Bearer ${TEST_TOKEN}`, host: 'evil.example:80' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject).end()
    })
    expect(status).toBe(403)
  })
})

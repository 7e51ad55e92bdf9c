import fs from 'node:fs'
import { request } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataUri, makePng } from '../../test/fixtures/gallery/png.js'
import { createV2GalleryDb, readItem } from '../../test/fixtures/gallery/v2-gallery-db.js'
import { createTestDeps, tempDir, TEST_NOW, type TestDeps } from '../../test/harness.js'
import { startTestServer, type TestServer } from '../../test/server.js'

type Page = { status: string; entries: Array<Record<string, unknown> & { target: string }>; cursor: string | null; share: { title: string } }

/** A DB with two sessions, each with images; the share covers only the first. */
function galleryDb(): { file: string; shared: string; other: string } {
  const file = path.join(tempDir(), 'opencode.db')
  const b = createV2GalleryDb(file)
  const shared = b.session({ directory: '/work/project', title: 'Landing page mockups', metadata: { 'codenomad.companion': 'images' } })
  b.user(shared, { text: 'secret transcript words', files: [{ uri: dataUri(makePng(8, 8, 1)), mime: 'image/png', name: 'sketch.png' }] })
  for (let i = 0; i < 70; i++) b.assistant(shared, [readItem(`call_${i}`, `/work/project/m${i}.png`, [dataUri(makePng(8, 8, i + 2))], 10 + i, 11 + i)])
  const other = b.session({ directory: '/work/project', title: 'Private' })
  b.assistant(other, [readItem('call_x', '/work/project/private.png', [dataUri(makePng(8, 8, 99))], 10, 20)])
  b.close()
  return { file, shared, other }
}

async function trpc<T>(server: TestServer, proc: string, input: unknown, mutation = false): Promise<T> {
  const res = mutation
    ? await server.fetch(`/trpc/${proc}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) })
    : await server.fetch(`/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`)
  const body = (await res.json()) as { result?: { data: T }; error?: unknown }
  if (!body.result) throw new Error(`${proc}: ${res.status} ${JSON.stringify(body.error)}`)
  return body.result.data
}

const raw = (port: number, pathName: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathName, headers }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject).end()
  })

describe('LAN share links', () => {
  let deps: TestDeps
  let server: TestServer
  let now = TEST_NOW
  let ids: ReturnType<typeof galleryDb>
  let token: string
  let shareID: string

  beforeAll(async () => {
    ids = galleryDb()
    const webRoot = tempDir()
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Loupe</title>')
    deps = await createTestDeps(ids.file, { webRoot })
    deps.clock = { now: () => now }
    server = await startTestServer(deps)
    const created = await trpc<{ url: string; reachable: boolean; share: { id: string; hint: string; status: string } }>(
      server, 'shares.create', { sessionID: ids.shared, expiresIn: 3600 }, true)
    token = created.url.split('/s/')[1]!
    shareID = created.share.id
    expect(created.url).toBe(`http://127.0.0.1:${server.port}/s/${token}`)
    expect(created.reachable).toBe(false)
    expect(created.share).toMatchObject({ status: 'active', hint: token.slice(-4) })
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })

  const shared = (p: string, headers: Record<string, string> = {}) => server.fetch(p, { auth: false, headers })

  it('issues unguessable tokens (256 bits) and stores only their hash', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const rows = deps.loupeDb.raw.prepare(`SELECT * FROM share`).all() as Record<string, unknown>[]
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(token)
    const file = fs.readFileSync(deps.loupeDb.path).toString('latin1') + (fs.existsSync(`${deps.loupeDb.path}-wal`) ? fs.readFileSync(`${deps.loupeDb.path}-wal`).toString('latin1') : '')
    expect(file).not.toContain(token)
  })

  it('serves the shell of /s/<token> and the gallery pages without the owner cookie', async () => {
    const shell = await shared(`/s/${token}`)
    expect(shell.status).toBe(200)
    expect(shell.headers.get('referrer-policy')).toBe('no-referrer')
    expect(await shell.text()).toContain('<title>Loupe</title>')
    const first = await shared(`/api/shared/${token}/images`)
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe('no-store')
    expect(first.headers.get('referrer-policy')).toBe('no-referrer')
    const page = (await first.json()) as Page
    expect(page.share.title).toBe('Landing page mockups')
    // the same budgets as the owner's pages: 32 assistant rows
    expect(page.entries).toHaveLength(32)
    // nothing of the transcript: no message ids, no prompts, no text
    expect(JSON.stringify(page)).not.toMatch(/messageID|"part"|secret transcript|prompt/)
    const all = [...page.entries]
    for (let cursor = page.cursor; cursor; ) {
      const next = (await (await shared(`/api/shared/${token}/images?cursor=${cursor}`)).json()) as Page
      all.push(...next.entries)
      cursor = next.cursor
    }
    expect(all).toHaveLength(71)
    expect(all.at(-1)).toMatchObject({ source: 'pasted', name: 'sketch.png' })
  })

  it('serves images and thumbnails of that session through the token', async () => {
    const page = (await (await shared(`/api/shared/${token}/images`)).json()) as Page
    const image = await shared(`/api/shared/${token}/images/${page.entries[0]!.target}`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    const thumb = await shared(`/api/shared/${token}/images/${page.entries[0]!.target}?size=256`)
    expect(thumb.status).toBe(200)
    expect(thumb.headers.get('content-type')).toBe('image/webp')
  })

  it('grants nothing else: another session, the transcript, any procedure, owner routes', async () => {
    const owner = await trpc<{ entries: Array<{ target: string }> }>(server, 'gallery.images', { sessionID: ids.other })
    expect((await shared(`/api/shared/${token}/images/${owner.entries[0]!.target}`)).status).toBe(404)
    for (const credentials of [{ authorization: `Bearer ${token}` }, { cookie: `loupe=${token}` }] as Record<string, string>[]) {
      expect((await shared(`/trpc/sessions.messages?input=${encodeURIComponent(JSON.stringify({ sessionID: ids.shared }))}`, credentials)).status).toBe(401)
      expect((await shared(`/trpc/gallery.images?input=${encodeURIComponent(JSON.stringify({ sessionID: ids.shared }))}`, credentials)).status).toBe(401)
      expect((await shared(`/trpc/shares.list`, credentials)).status).toBe(401)
      expect((await shared(`/api/sessions/${ids.shared}/images/${owner.entries[0]!.target}`, credentials)).status).toBe(401)
    }
    expect((await shared(`/api/shared/${token}/messages`)).status).toBe(404)
    expect((await shared(`/api/shared/${token}/images/../../../trpc/storage.info`)).status).toBeGreaterThanOrEqual(400)
    expect((await shared(`/api/shared/${token}/images?cursor=x&sessionID=${ids.other}`)).status).toBe(400)
  })

  it('checks Host and Origin on the share door too', async () => {
    expect(await raw(server.port, `/api/shared/${token}/images`, { host: 'evil.example' })).toBe(403)
    expect(await raw(server.port, `/api/shared/${token}/images`, { host: `127.0.0.1:${server.port}`, origin: 'http://evil.example' })).toBe(403)
    expect(await raw(server.port, `/api/shared/${token}/images`, { host: `127.0.0.1:${server.port}` })).toBe(200)
  })

  it('stops working at expiry (410 from pages and images alike)', async () => {
    const created = await trpc<{ url: string }>(server, 'shares.create', { sessionID: ids.shared, expiresIn: 300 }, true)
    const short = created.url.split('/s/')[1]!
    const page = (await (await shared(`/api/shared/${short}/images`)).json()) as Page
    now += 301_000
    try {
      expect((await shared(`/api/shared/${short}/images`)).status).toBe(410)
      expect((await shared(`/api/shared/${short}/images/${page.entries[0]!.target}`)).status).toBe(410)
      expect((await shared(`/api/shared/${token}/images`)).status).toBe(200)
    } finally {
      now -= 301_000
    }
  })

  it('stops working the moment it is revoked, on both routes', async () => {
    const created = await trpc<{ url: string; share: { id: string } }>(server, 'shares.create', { sessionID: ids.shared, expiresIn: 3600 }, true)
    const doomed = created.url.split('/s/')[1]!
    const page = (await (await shared(`/api/shared/${doomed}/images`)).json()) as Page
    const revoked = await trpc<{ status: string }>(server, 'shares.revoke', { id: created.share.id }, true)
    expect(revoked.status).toBe('revoked')
    expect((await shared(`/api/shared/${doomed}/images`)).status).toBe(410)
    expect((await shared(`/api/shared/${doomed}/images/${page.entries[0]!.target}?size=256`)).status).toBe(410)
    const list = await trpc<{ shares: Array<{ id: string; status: string; sessionTitle: string }> }>(server, 'shares.list', { sessionID: ids.shared })
    expect(list.shares.find((s) => s.id === created.share.id)).toMatchObject({ status: 'revoked', sessionTitle: 'Landing page mockups' })
    expect(list.shares.find((s) => s.id === shareID)).toMatchObject({ status: 'active' })
  })
})

describe('share links: guessing and LAN addresses', () => {
  let deps: TestDeps
  let server: TestServer

  beforeAll(async () => {
    deps = await createTestDeps(galleryDb().file, { host: '0.0.0.0', lanAddresses: ['192.168.1.50'], allowedHostNames: ['127.0.0.1', 'localhost', '192.168.1.50'] })
    server = await startTestServer(deps)
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })

  it('builds the link on the LAN address when serving the LAN', async () => {
    const sessionID = (deps.opencode.db.raw.prepare(`SELECT id FROM session_v2 WHERE title = 'Landing page mockups'`).get() as { id: string }).id
    const created = await trpc<{ url: string; reachable: boolean }>(server, 'shares.create', { sessionID, expiresIn: 600 }, true)
    expect(created.url).toMatch(new RegExp(`^http://192\\.168\\.1\\.50:${server.port}/s/[A-Za-z0-9_-]{43}$`))
    expect(created.reachable).toBe(true)
    const token = created.url.split('/s/')[1]!
    expect(await raw(server.port, `/api/shared/${token}/images`, { host: `192.168.1.50:${server.port}` })).toBe(200)
  })

  it('rate-limits guessing: unknown tokens get 404, then 429 for that address, whose valid link still opens', async () => {
    const sessionID = (deps.opencode.db.raw.prepare(`SELECT id FROM session_v2 WHERE title = 'Landing page mockups'`).get() as { id: string }).id
    const created = await trpc<{ url: string }>(server, 'shares.create', { sessionID, expiresIn: 600 }, true)
    const valid = created.url.split('/s/')[1]!
    const guess = () => Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))).toString('base64url')
    const statuses: number[] = []
    for (let i = 0; i < 22; i++) {
      statuses.push((await server.fetch(`/api/shared/${guess()}/images`, { auth: false })).status)
      // A valid link between the guesses counts for nothing.
      if (i === 10) expect((await server.fetch(`/api/shared/${valid}/images`, { auth: false })).status).toBe(200)
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404))
    expect(statuses.slice(20)).toEqual([429, 429])
    const page = (await (await server.fetch(`/api/shared/${valid}/images`, { auth: false })).json()) as Page
    expect(page.status).toBe('page')
    expect((await server.fetch(`/api/shared/${valid}/images/${page.entries[0]!.target}`, { auth: false })).status).toBe(200)
  })

  it('refuses malformed share input from the owner', async () => {
    const res = await server.fetch('/trpc/shares.create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionID: 'ses_nope', expiresIn: 10 }) })
    expect(res.status).toBe(400)
    const missing = await server.fetch('/trpc/shares.create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionID: 'ses_nope', expiresIn: 600 }) })
    expect(missing.status).toBe(404)
  })
})

import { decodeTarget, type NativeMessage } from '@loupe/domain'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildV2Fixture, type V2FixtureManifest } from '../../../test/fixtures/v2-fixture.js'
import { createCaller, createTestDeps, tempDir, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'

type Json = Record<string, any>
const IMAGE = /^image\/(png|jpeg|gif|webp|avif)$/
const sha = (text: string) => createHash('sha256').update(text).digest('hex')

/** The image files a message holds, in part and file order, read straight from its native form. */
function imagesOf(message: NativeMessage): { source: string; uri: string }[] {
  const out: { source: string; uri: string }[] = []
  if (message.storage === 'v1') {
    for (const p of message.parts as Json[]) {
      if (message.info.role === 'user' && p.type === 'file' && IMAGE.test(p.mime)) out.push({ source: 'pasted', uri: p.url })
      if (message.info.role === 'assistant' && p.type === 'tool' && p.tool === 'read')
        for (const a of p.state?.attachments ?? []) if (IMAGE.test(a.mime)) out.push({ source: 'read', uri: a.url })
    }
    return out
  }
  const m = message.message as Json
  if (m.type === 'user') for (const f of m.files ?? []) if (IMAGE.test(f.mime)) out.push({ source: 'pasted', uri: f.uri ?? `data:${f.mime};base64,${f.data}` })
  if (m.type === 'assistant')
    for (const c of m.content ?? []) if (c.type === 'tool' && c.name === 'read') for (const f of c.state?.content ?? []) if (f.type === 'file' && IMAGE.test(f.mime)) out.push({ source: 'read', uri: f.uri })
  return out
}

/** The gen engineer's 2.x fixtures (fresh and upgraded files): every image listed once and served. */
const CASES = (['fresh', 'upgraded'] as const).flatMap((variant) => (['july', 'current'] as const).map((shape) => ({ variant, shape })))

describe.each(CASES)('the gallery over the 2.x fixture ($variant, $shape shapes)', ({ variant, shape }) => {
  let manifest: V2FixtureManifest
  let deps: TestDeps
  let server: TestServer

  beforeAll(async () => {
    manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant, shape })
    deps = await createTestDeps(manifest.file)
    server = await startTestServer(deps)
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })

  it('lists exactly the images of each session, newest first, and serves their bytes', async () => {
    const caller = createCaller({ deps })
    let total = 0
    for (const session of manifest.sessions) {
      const expected = [...session.messages].reverse().flatMap(imagesOf)
      const entries = []
      for (let cursor: string | undefined, guard = 0; guard < 50; guard++) {
        const page = await caller.gallery.images({ sessionID: session.id, storage: session.storage, ...(cursor ? { cursor } : {}) })
        if (page.status !== 'page') throw new Error(JSON.stringify(page))
        entries.push(...page.entries.filter((e) => e.kind === 'image'))
        if (!page.cursor) break
        cursor = page.cursor
      }
      expect(entries.map((e) => e.kind === 'image' && e.source), session.key).toEqual(expected.map((x) => x.source))
      expect(entries.map((e) => { const t = decodeTarget(e.target); return t.ok ? t.value.digest : '' })).toEqual(expected.map((x) => sha(x.uri)))
      for (const [i, entry] of entries.entries()) {
        const res = await server.fetch(`/api/sessions/${session.id}/images/${entry.target}?storage=${session.storage}`)
        expect(res.status).toBe(200)
        expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(expected[i]!.uri.split(',')[1]!, 'base64'))).toBe(true)
      }
      total += entries.length
    }
    expect(total).toBeGreaterThan(0)
  })
})

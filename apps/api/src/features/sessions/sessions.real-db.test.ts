import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type RealFixture, type TestDeps } from '../../../test/harness.js'

type Export = { info: Record<string, any>; messages: Array<{ info: Record<string, any>; parts: Array<Record<string, any>> }> }
type ExportV2 = { info: Record<string, any>; messages: Array<Record<string, any>> }

const readJsonDir = <T>(dir: string): T[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as T) : []

/** Every message of a session through the paged procedure, oldest first, following `older` cursors. */
async function allMessages(caller: ReturnType<typeof createCaller>, sessionID: string, storage: 'v1' | 'v2') {
  const pages = []
  let page = await caller.sessions.messages({ sessionID, storage, limit: 3 })
  pages.unshift(page.messages)
  while (page.older) {
    page = await caller.sessions.messages({ sessionID, storage, cursor: page.older, limit: 3 })
    pages.unshift(page.messages)
  }
  return pages.flat()
}

describe('sessions over a real OpenCode 1.18.33 database', () => {
  let fixture: RealFixture
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  let exports1: Export[]
  let exports2: ExportV2[]

  beforeAll(async () => {
    fixture = await realFixture()
    deps = await createTestDeps(fixture.db)
    caller = createCaller({ deps })
    exports1 = readJsonDir<Export>(fixture.sessionsDir)
    exports2 = readJsonDir<ExportV2>(fixture.sessionsV2Dir)
  })
  afterAll(() => deps.cleanup())

  it('reports each 1.x session as OpenCode does, with counts that match its export', async () => {
    for (const e of exports1) {
      const { session } = await caller.sessions.get({ sessionID: e.info.id, storage: 'v1' })
      expect(session).toMatchObject({
        id: e.info.id,
        title: e.info.title,
        directory: e.info.directory,
        projectID: e.info.projectID,
        parentID: e.info.parentID ?? null,
        version: e.info.version,
        timeCreated: e.info.time.created,
        timeUpdated: e.info.time.updated,
      })
      expect(session.stats.messages).toBe(e.messages.length)
      expect(session.stats.parts).toBe(e.messages.reduce((n, m) => n + m.parts.length, 0))
    }
  })

  it('returns every 1.x message and part in the native read form, equal to OpenCode\'s own export', async () => {
    let parts = 0
    for (const e of exports1) {
      const messages = await allMessages(caller, e.info.id, 'v1')
      expect(messages.map((m) => m.storage === 'v1' && { info: m.info, parts: m.parts })).toEqual(e.messages)
      parts += e.messages.reduce((n, m) => n + m.parts.length, 0)
    }
    expect(parts).toBeGreaterThan(50)
  })

  it('returns every experimental 2.x message equal to OpenCode\'s /api/session export', async () => {
    expect(exports2.length).toBeGreaterThan(0)
    for (const e of exports2) {
      const messages = await allMessages(caller, e.info.id, 'v2')
      expect(messages.map((m) => m.storage === 'v2' && m.message)).toEqual(e.messages)
    }
  })

  it('links the subagent child session to its parent', async () => {
    const child = exports1.find((e) => e.info.parentID)
    expect(child).toBeDefined()
    const parent = await caller.sessions.get({ sessionID: child!.info.parentID, storage: 'v1' })
    expect(parent.children.map((c) => c.id)).toContain(child!.info.id)
    const roots = await caller.sessions.list({ rootsOnly: true, limit: 200 })
    expect(roots.sessions.map((s) => s.id)).not.toContain(child!.info.id)
  })

  it('breaks a session\'s bytes down by part kind and tool, including the event log', async () => {
    const e = exports1.find((x) => x.messages.some((m) => m.parts.some((p) => p.type === 'tool')))!
    const breakdown = await caller.sessions.breakdown({ sessionID: e.info.id, storage: 'v1' })
    const tools = breakdown.entries.filter((x) => x.area === 'part' && x.kind === 'tool')
    const exportedTools = e.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool')
    expect(tools.reduce((n, t) => n + t.count, 0)).toBe(exportedTools.length)
    expect(new Set(tools.map((t) => t.tool))).toEqual(new Set(exportedTools.map((p) => p.tool)))
    expect(breakdown.entries.some((x) => x.area === 'event' && x.kind === 'message.part.updated.1')).toBe(true)
    expect(tools.every((t) => (t.tokens ?? 0) > 0)).toBe(true)
  })

  it('answers not_found for an unknown session and for a message of another session', async () => {
    await expect(caller.sessions.get({ sessionID: 'ses_doesnotexist' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const [a, b] = exports1
    await expect(caller.sessions.message({ sessionID: a!.info.id, storage: 'v1', messageID: b!.messages[0]!.info.id }))
      .rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

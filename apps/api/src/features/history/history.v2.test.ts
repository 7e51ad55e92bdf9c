import Database from 'better-sqlite3'
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, tempDir, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { addV2Message, addV2Session, createV2Db } from '../../../test/search-fixtures.js'

const T = TEST_NOW - 600_000

describe('history.search over 2.x storage', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  let dir: string
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    dir = tempDir()
    const db = new Database(createV2Db(dir))
    ids.session = addV2Session(db, { title: 'Ocelot migration', time: T, directory: '/srv/ocelot' })
    ids.user = addV2Message(db, { sessionID: ids.session, type: 'user', time: T + 1, data: { text: 'Move the ocelot service to the new cluster', time: { created: T + 1 } } })
    ids.assistant = addV2Message(db, {
      sessionID: ids.session, type: 'assistant', time: T + 2,
      data: {
        agent: 'build', model: { id: 'm1', providerID: 'mock' }, time: { created: T + 2, completed: T + 3 }, finish: 'stop',
        tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
        content: [
          { type: 'reasoning', text: 'The ocelot manifests live in deploy/.' },
          { type: 'tool', id: 'call_1', name: 'shell', state: { status: 'completed', input: { command: 'kubectl get pods -l app=ocelot' }, content: [{ type: 'text', text: 'ocelot-7f9 Running' }, { type: 'file', uri: 'data:image/png;base64,AAAA', mime: 'image/png', name: 'x.png' }] } },
          { type: 'text', text: 'Done: the ocelot pods run on the new cluster (ticket OPS4471).' },
        ],
      },
    })
    ids.compaction = addV2Message(db, { sessionID: ids.session, type: 'compaction', time: T + 4, data: { status: 'completed', reason: 'auto', summary: 'Objective: ocelot moved; lynx next.', recent: '[User]: lynx?', time: { created: T + 4 } } })
    ids.reverted = addV2Message(db, { sessionID: ids.session, type: 'user', time: T + 5, data: { text: 'ocelot rollback please', time: { created: T + 5 } } })
    db.close()
    deps = await createTestDeps(`${dir}/opencode.db`)
    caller = createCaller({ deps })
    deps.searchIndex.runUntilIdle()
  })
  afterAll(() => {
    deps.cleanup()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('indexes user text, assistant content items by index, and compaction summaries', async () => {
    const { hits } = await caller.history.search({ query: 'ocelot', limit: 50 })
    const seen = hits.map((h) => [h.kind, h.messageID, h.index ?? null, h.tool ?? null])
    expect(seen).toEqual(expect.arrayContaining([
      ['title', null, null, null],
      ['user', ids.user, null, null],
      ['reasoning', ids.assistant, 0, null],
      ['tool', ids.assistant, 1, 'shell'],
      ['text', ids.assistant, 2, null],
      ['text', ids.compaction, null, null],
    ]))
    expect(hits.every((h) => h.storage === 'v2' && h.sessionTitle === 'Ocelot migration')).toBe(true)
    expect(hits.every((h) => h.partID === undefined)).toBe(true)
  })

  it('finds code substrings and tool output in 2.x rows, never media', async () => {
    expect((await caller.history.search({ query: '4471' })).hits.map((h) => h.index)).toEqual([2])
    expect((await caller.history.search({ query: 'Running', kinds: ['tool'] })).hits.map((h) => h.tool)).toEqual(['shell'])
    expect((await caller.history.search({ query: 'AAAA' })).hits).toHaveLength(0)
  })

  it('scopes to a 2.x session by (storage, id)', async () => {
    const scoped = await caller.history.search({ query: 'lynx', sessionID: ids.session!, storage: 'v2' })
    expect(scoped.hits.map((h) => h.messageID)).toEqual([ids.compaction])
    await expect(caller.history.search({ query: 'lynx', sessionID: ids.session!, storage: 'v1' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('hides messages at and after a staged revert boundary', async () => {
    expect((await caller.history.search({ query: 'rollback' })).hits).toHaveLength(1)
    const db = new Database(deps.opencode.path)
    db.prepare(`UPDATE session_v2 SET revert = ? WHERE id = ?`).run(JSON.stringify({ messageID: ids.reverted }), ids.session)
    db.close()
    expect((await caller.history.search({ query: 'rollback' })).hits).toHaveLength(0)
    expect((await caller.history.search({ query: 'ocelot', limit: 50 })).hits.some((h) => h.messageID === ids.user)).toBe(true)
  })
})

describe('history.search over the real fixture (1.x with experimental 2.x rows)', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    deps.searchIndex.runUntilIdle()
  })
  afterAll(() => deps.cleanup())

  it('finds what real OpenCode wrote in both generations, with the part or item to open', async () => {
    const db = deps.opencode.db
    const v2row = db.getSql<{ id: string; session_id: string }>(`SELECT id, session_id FROM session_message WHERE type = 'user' LIMIT 1`)!
    const text = JSON.parse(db.getSql<{ data: string }>(`SELECT data FROM session_message WHERE id = ?`, [v2row.id])!.data).text as string
    const word = text.split(/\W+/).filter((w) => w.length > 6)[0]!
    const v2hits = (await caller.history.search({ query: word, sessionID: v2row.session_id, storage: 'v2', kinds: ['user'] })).hits
    expect(v2hits.map((h) => h.messageID)).toContain(v2row.id)

    const part = db.getSql<{ id: string; message_id: string; session_id: string; data: string }>(
      `SELECT id, message_id, session_id, data FROM part WHERE json_extract(data, '$.type') = 'tool' AND json_extract(data, '$.tool') = 'bash' LIMIT 1`)!
    const command = JSON.parse(part.data).state.input.command as string
    const hits = (await caller.history.search({ query: `"${command}"`, sessionID: part.session_id, storage: 'v1', tool: 'bash' })).hits
    expect(hits.map((h) => h.partID)).toContain(part.id)
  })
})

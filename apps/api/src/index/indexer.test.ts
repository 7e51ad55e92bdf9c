import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { docKeys } from '../../test/index-fixtures.js'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir, TEST_NOW, type TestDeps } from '../../test/harness.js'
import { addV1Message, addV1Session, fixtureWithV1Session, bumpSequence, textPart, toolPart } from '../../test/search-fixtures.js'
import { openSqlite } from '../lib/sqlite.js'
import { openOpenCode } from '../store/open-opencode.js'
import { keyOfId } from './doc-id.js'
import { indexFileFor, openIndexDb } from './index-db.js'
import { createIndexer } from './indexer.js'
import { indexSourcesOf } from '../store/index-sources.js'

const T = TEST_NOW - 7_200_000

describe('createIndexer', () => {
  it('resumes an interrupted build from its watermark and ends with the same documents as a full build', async () => {
    const dir = tempDir()
    const source = openOpenCode(copyDb((await realFixture()).db, dir))
    const identity = { path: source.path, identity: source.identity }
    const full = path.join(dir, 'full.sqlite')
    const resumed = path.join(dir, 'resumed.sqlite')
    const fullDb = openIndexDb(full, identity)
    const a = createIndexer({ sourceDb: source.db, sources: indexSourcesOf(source), index: fullDb, now: Date.now })
    a.start()
    while (a.buildStep(1000));
    fullDb.close()

    let steps = 0
    for (let attempt = 0; attempt < 50; attempt++) {
      const db = openIndexDb(resumed, identity)
      const b = createIndexer({ sourceDb: source.db, sources: indexSourcesOf(source), index: db, now: Date.now })
      b.start()
      const more = b.buildStep(0)
      const status = b.status()
      db.close()
      steps++
      if (!more) {
        expect(status).toMatchObject({ state: 'ready' })
        expect(status.indexedParts).toBe(status.totalParts)
        break
      }
      expect(status.state).toBe('building')
    }
    expect(steps).toBeGreaterThan(1)
    expect(docKeys(resumed)).toEqual(docKeys(full))
    source.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('gives documents of one millisecond their own ids, spilling into the next millisecond when one is full', async () => {
    const dir = tempDir()
    const { file, raw, sessionID } = await fixtureWithV1Session(dir, 'Crowded millisecond', T)
    const { messageID } = addV1Message(raw, { sessionID, role: 'assistant', time: T, parts: [textPart('first of many')] })
    const insert = raw.prepare(`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`)
    // 4,100 parts written in the same millisecond as the session's title and first part.
    raw.transaction(() => {
      for (let i = 0; i < 4100; i++) insert.run(`prt_crowd${String(i).padStart(6, '0')}`, messageID, sessionID, T, T, JSON.stringify(textPart(`crowd member ${i}`)))
    })()
    raw.close()
    const source = openOpenCode(file)
    const index = openIndexDb(path.join(dir, 'index.sqlite'), { path: source.path, identity: source.identity })
    const indexer = createIndexer({ sourceDb: source.db, sources: indexSourcesOf(source), index, now: Date.now })
    indexer.start()
    while (indexer.buildStep(0));
    const ids = index.allSql<{ id: number }>(`SELECT id FROM doc WHERE session_id = ?`, [sessionID]).map((r) => r.id)
    expect(ids.length).toBe(4102)
    expect(new Set(ids).size).toBe(4102)
    // The millisecond's 4,096 slots are full; the other six move to the next one.
    const keys = ids.map(keyOfId)
    const base = T * 4096
    expect(keys.filter((k) => k >= base && k < base + 4096).length).toBe(4096)
    expect(keys.filter((k) => k >= base + 4096).length).toBe(6)
    expect(Math.min(...keys)).toBe(base)
    index.close()
    source.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('recreates a damaged sidecar instead of failing', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'index.sqlite')
    fs.writeFileSync(file, 'this is not a database '.repeat(400))
    const db = openIndexDb(file, { path: '/a/opencode.db', identity: { dev: 1, ino: 2 } })
    expect(db.getSql<{ n: number }>(`SELECT count(*) AS n FROM doc`)!.n).toBe(0)
    expect(db.raw.pragma('page_size', { simple: true })).toBe(16384)
    db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('recreates a sidecar that belongs to another database file', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'index.sqlite')
    const db = openIndexDb(file, { path: '/a/opencode.db', identity: { dev: 1, ino: 2 } })
    db.runSql(`INSERT INTO meta(key, value) VALUES ('marker', '1')`)
    db.close()
    const again = openIndexDb(file, { path: '/b/opencode.db', identity: { dev: 1, ino: 3 } })
    expect(again.getSql(`SELECT value FROM meta WHERE key = 'marker'`)).toBeUndefined()
    again.close()
    expect(indexFileFor('/data', { path: '/a', identity: { dev: 1, ino: 2 } })).not.toBe(indexFileFor('/data', { path: '/a', identity: { dev: 1, ino: 3 } }))
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

describe('incremental upkeep', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  let db: Database.Database
  let session: string
  const find = async (query: string) => (await caller.history.search({ query })).hits

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    db = new Database(deps.opencode.path)
    session = addV1Session(db, { title: 'Upkeep', time: T })
    deps.searchIndex.runUntilIdle()
  })
  beforeEach(() => deps.searchIndex.runUntilIdle())
  afterAll(() => {
    db.close()
    deps.cleanup()
  })

  it('indexes a new turn and a new session', async () => {
    addV1Message(db, { sessionID: session, role: 'assistant', time: Date.now(), parts: [textPart('the marmalade protocol')] })
    const fresh = addV1Session(db, { title: 'Gooseberry session', time: Date.now() })
    expect(await find('marmalade')).toHaveLength(0)
    deps.searchIndex.runUntilIdle()
    expect((await find('marmalade')).map((h) => h.sessionID)).toEqual([session])
    expect((await find('gooseberry')).map((h) => [h.sessionID, h.kind])).toEqual([[fresh, 'title']])
  })

  it('re-indexes a part OpenCode updated in place (upsert) and a changed title', async () => {
    const { partIDs } = addV1Message(db, { sessionID: session, role: 'assistant', time: Date.now(), parts: [toolPart('bash', { command: 'make' }, 'compiling wombats…')] })
    deps.searchIndex.runUntilIdle()
    db.prepare(`UPDATE part SET data = ?, time_updated = ? WHERE id = ?`).run(JSON.stringify(toolPart('bash', { command: 'make' }, 'built quokka.bin')), Date.now(), partIDs[0])
    db.prepare(`UPDATE session SET title = 'Quokka build', time_updated = ? WHERE id = ?`).run(Date.now(), session)
    bumpSequence(db, session)
    deps.searchIndex.runUntilIdle()
    const hits = await find('quokka')
    expect(hits.map((h) => h.kind).sort()).toEqual(['title', 'tool'])
    expect(await find('wombats')).toHaveLength(0)
  })

  it('drops documents of parts, messages and sessions OpenCode deleted', async () => {
    const gone = addV1Session(db, { title: 'Walrus notes', time: Date.now() })
    const m = addV1Message(db, { sessionID: gone, role: 'assistant', time: Date.now(), parts: [textPart('walrus tusk'), textPart('walrus flipper')] })
    deps.searchIndex.runUntilIdle()
    expect(await find('walrus')).toHaveLength(3)
    db.prepare(`DELETE FROM part WHERE id = ?`).run(m.partIDs[0])
    bumpSequence(db, gone)
    deps.searchIndex.runUntilIdle()
    expect((await find('walrus')).map((h) => h.partID ?? 'title').sort()).toEqual([m.partIDs[1], 'title'].sort())
    db.prepare(`DELETE FROM session WHERE id = ?`).run(gone)
    db.prepare(`DELETE FROM event_sequence WHERE aggregate_id = ?`).run(gone)
    deps.searchIndex.runUntilIdle()
    expect(await find('walrus')).toHaveLength(0)
  })

  it('reconciles a row deleted by another tool without any event (the sweep)', async () => {
    const m = addV1Message(db, { sessionID: session, role: 'assistant', time: Date.now(), parts: [textPart('narwhal horn')] })
    deps.searchIndex.runUntilIdle()
    expect(await find('narwhal')).toHaveLength(1)
    db.prepare(`DELETE FROM part WHERE id = ?`).run(m.partIDs[0])
    deps.searchIndex.runUntilIdle()
    expect(await find('narwhal')).toHaveLength(0)
  })

  it('removes pruned parts in the same request through the pruned event', async () => {
    const m = addV1Message(db, { sessionID: session, role: 'assistant', time: Date.now(), parts: [textPart('kept albatross'), toolPart('grep', { pattern: 'albatross' }, 'albatross.txt:1')] })
    deps.searchIndex.runUntilIdle()
    expect(await find('albatross')).toHaveLength(2)
    db.prepare(`DELETE FROM part WHERE id = ?`).run(m.partIDs[1])
    deps.events.emit('pruned', { sessionID: session, messageID: m.messageID, revision: 'r', storage: 'v1' })
    expect((await find('albatross')).map((h) => h.partID)).toEqual([m.partIDs[0]])
  })
})

describe('the indexing worker', () => {
  it('builds in a worker thread and follows OpenCode commits', async () => {
    const deps = await createTestDeps((await realFixture()).db, {}, { searchIndex: 'worker' })
    const caller = createCaller({ deps })
    const waitFor = async (pred: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await pred()); i++) await new Promise((r) => setTimeout(r, 50))
      return pred()
    }
    const ready = await waitFor(async () => deps.searchIndex.status().state === 'ready')
    expect(deps.searchIndex.status()).toMatchObject({ state: 'ready', message: null })
    expect(ready).toBe(true)
    const db = new Database(deps.opencode.path)
    const session = addV1Session(db, { title: 'Worker', time: Date.now() })
    addV1Message(db, { sessionID: session, role: 'assistant', time: Date.now(), parts: [textPart('a pangolin appears')] })
    db.close()
    expect(await waitFor(async () => (await caller.history.search({ query: 'pangolin' })).hits.length === 1)).toBe(true)
    await deps.searchIndex.close()
    deps.cleanup()
  })

  it('opens only its own sidecar file (never writes next to OpenCode)', async () => {
    const deps = await createTestDeps((await realFixture()).db)
    deps.searchIndex.runUntilIdle()
    const beside = fs.readdirSync(path.dirname(deps.opencode.path)).filter((f) => f.includes('index'))
    expect(beside).toEqual([])
    expect(fs.readdirSync(path.join(deps.config.dataDir, 'search')).some((f) => f.endsWith('.sqlite'))).toBe(true)
    const sidecar = openSqlite(indexFileFor(deps.config.dataDir, { path: deps.opencode.path, identity: deps.opencode.identity }), { readonly: true })
    expect(sidecar.getSql<{ n: number }>(`SELECT count(*) AS n FROM doc`)!.n).toBeGreaterThan(0)
    sidecar.close()
    deps.cleanup()
  })
})

describe('after the last rows were deleted', () => {
  it('still indexes rows appended later with reused rowids (the tail restarts at the last row)', async () => {
    const deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    deps.searchIndex.runUntilIdle()
    const db = new Database(deps.opencode.path)
    // Deleting the newest rows (a prune, a VACUUM) makes SQLite hand their rowids out again.
    db.prepare(`DELETE FROM part WHERE rowid IN (SELECT rowid FROM part ORDER BY rowid DESC LIMIT 40)`).run()
    db.exec('VACUUM')
    // A foreign writer adds a part to an indexed session without any event: only the rowid tail sees it.
    const host = db.prepare(`SELECT id, session_id FROM message ORDER BY time_created LIMIT 1`).get() as { id: string; session_id: string }
    db.prepare(`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`)
      .run('prt_ffffffffffffvacuumtail01', host.id, host.session_id, Date.now(), Date.now(), JSON.stringify(textPart('an okapi after vacuum')))
    db.close()
    deps.searchIndex.runUntilIdle()
    expect((await caller.history.search({ query: 'okapi' })).hits).toHaveLength(1)
    deps.cleanup()
  })
})

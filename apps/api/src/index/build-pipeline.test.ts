import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { copyDb, createTestDeps, realFixture, tempDir } from '../../test/harness.js'
import { docKeys, openIndexer } from '../../test/index-fixtures.js'
import { addV1Message, fixtureWithV1Session, addV2Message, addV2Session, createV2Db, textPart, toolPart } from '../../test/search-fixtures.js'
import { openOpenCode } from '../store/open-opencode.js'
import { createDocReader, readBatch, type BuildBatch } from './build-batch.js'
import { openSqlite, type SqliteDb } from '../lib/sqlite.js'
import { BUILD_CRISIS_MERGE, indexFileFor, setBuildMerging } from './index-db.js'

const matches = (index: SqliteDb, word: string) =>
  index.getSql<{ n: number }>(`SELECT count(*) AS n FROM fts WHERE fts MATCH ?`, [word])!.n

type Opened = { file: string; dir: string }

/** A sidecar and indexer over `file`, and the reader thread's first batch of it, read now. */
function readFirstBatch({ file, dir }: Opened, withTerms = true) {
  const opencode = openOpenCode(file)
  const { index, indexer } = openIndexer(opencode, path.join(dir, 'index.sqlite'))
  // What the pipeline does: the data version as the writer reads it, then the reader thread's
  // batch (a whole table in one), read before the prune.
  const version = indexer.sourceVersion()
  const batch: BuildBatch = { ...opencode.db.read(() =>
    readBatch(createDocReader(opencode.db, indexer.sources), indexer.buildCursor()!, { rows: 1e9, bytes: 1e12 }, { withTerms })), version }
  const cleanup = () => {
    index.close()
    opencode.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return { batch, index, indexer, cleanup }
}

/** The real fixture plus one assistant message whose tool output a 1.x prune deletes. */
async function v1WithPrunableOutput() {
  const dir = tempDir()
  const { file, raw: db, time, sessionID } = await fixtureWithV1Session(dir, 'Prune during build')
  const { messageID, partIDs } = addV1Message(db, {
    sessionID, role: 'assistant', time,
    parts: [textPart('the answer stays'), toolPart('bash', { command: 'cat secrets.txt' }, 'okapi-token lives here')],
  })
  db.close()
  // As Loupe's 1.x prune does: the technical part's row goes (its message and text stay).
  const prune = () => {
    const raw = new Database(file)
    raw.prepare(`DELETE FROM part WHERE id = ?`).run(partIDs[1])
    raw.close()
  }
  return { ...readFirstBatch({ file, dir }), prune, sessionID, messageID }
}

type Batched = ReturnType<typeof readFirstBatch>

/** Write the batch read before the prune: the pruned marker must not be found, the rest must. */
function expectPrunedAway(t: Batched, marker: string) {
  expect(t.indexer.applyBatch(t.batch)).toBe('applied')
  expect(matches(t.index, marker)).toBe(0)
  expect(matches(t.index, '"answer stays"')).toBe(1)
}

describe('the build pipeline', () => {
  it('re-reads a batch read before a prune, so the pruned text never reaches the index', async () => {
    const t = await v1WithPrunableOutput()
    expect(t.batch.docs.some((d) => d.fields.output.includes('okapi'))).toBe(true)
    t.prune()
    t.indexer.reindexMessage('v1', t.sessionID, t.messageID)
    expectPrunedAway(t, 'okapi')
    // The batch now lies behind the build's cursor: it is refused, not written twice.
    expect(t.indexer.applyBatch(t.batch)).toBe('moved')
    t.cleanup()
  })

  it('does so also when the prune re-index never got the sidecar lock (the row stamps tell)', async () => {
    const t = await v1WithPrunableOutput()
    t.prune()
    expectPrunedAway(t, 'okapi')
    t.cleanup()
  })

  it('compares row stamps when the batch carries no data version', async () => {
    const t = await v1WithPrunableOutput()
    t.prune()
    t.batch.version = undefined
    expectPrunedAway(t, 'okapi')
    t.cleanup()
  })

  it('trusts the data version over row stamps while no commit has happened since the batch was read', async () => {
    const t = await v1WithPrunableOutput()
    const doc = t.batch.docs.find((d) => d.fields.output.includes('okapi'))!
    doc.fields = { ...doc.fields, output: 'wombat-token lives here' }
    // Stamps that no longer match would make the writer read the rows again, and find okapi.
    t.batch.stamps = 'stale'
    expect(t.indexer.applyBatch(t.batch)).toBe('applied')
    expect(matches(t.index, 'wombat')).toBe(1)
    expect(matches(t.index, 'okapi')).toBe(0)
    t.cleanup()
  })

  it('writes the batch as the reader made it when nothing changed (no second read)', async () => {
    const t = await v1WithPrunableOutput()
    // Marked so the test can tell the batch's own documents from a re-read of OpenCode.
    const doc = t.batch.docs.find((d) => d.fields.output.includes('okapi'))!
    doc.fields = { ...doc.fields, output: 'wombat-token lives here' }
    expect(t.indexer.applyBatch(t.batch)).toBe('applied')
    expect(matches(t.index, 'wombat')).toBe(1)
    expect(matches(t.index, 'okapi')).toBe(0)
    t.cleanup()
  })

  it('finds the code tokens on the writer\'s side when the reader left them out', async () => {
    const dir = tempDir()
    const { file, raw: db, time, sessionID } = await fixtureWithV1Session(dir, 'Code tokens')
    addV1Message(db, { sessionID, role: 'assistant', time, parts: [textPart('see PR1137'), toolPart('read', { filePath: 'src/getUserName.ts' }, 'export const v2Cursor = 1')] })
    db.close()
    const vocabulary = (withTerms: boolean) => {
      const copy = path.join(dir, String(withTerms))
      fs.mkdirSync(copy)
      const t = readFirstBatch({ file: copyDb(file, copy), dir: copy }, withTerms)
      expect(t.batch.terms === null).toBe(!withTerms)
      expect(t.indexer.applyBatch(t.batch)).toBe('applied')
      // The end of the build gives the terms their substring index: `1137` finds `pr1137`.
      while (t.indexer.buildStep(1000));
      const terms = t.index.allSql<{ term: string }>(`SELECT term FROM vocab ORDER BY term`).map((r) => r.term)
      const found = t.index.allSql<{ term: string }>(`SELECT term FROM vocab_tri WHERE vocab_tri MATCH '"1137"'`).map((r) => r.term)
      t.cleanup()
      return { terms, found }
    }
    const left = vocabulary(false)
    expect(left.terms).toEqual(expect.arrayContaining(['pr1137', 'getusername', 'v2cursor']))
    expect(left.found).toEqual(['pr1137'])
    expect(left).toEqual(vocabulary(true))
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('catches a 2.x prune, which rewrites the row in place', async () => {
    const dir = tempDir()
    const file = createV2Db(dir)
    const db = new Database(file)
    const time = Date.now() - 60_000
    const sessionID = addV2Session(db, { title: 'v2 prune during build', time })
    const tool = { type: 'tool', id: 'call_1', name: 'shell', state: { status: 'completed', input: { command: 'cat notes' }, content: [{ type: 'text', text: 'quokka-token lives here' }] } }
    const messageID = addV2Message(db, { sessionID, type: 'assistant', time, data: { time: { created: time, completed: time + 1 }, finish: 'stop', content: [{ type: 'text', text: 'the answer stays' }, tool] } })
    db.close()
    const t = readFirstBatch({ file, dir })
    expect(t.batch.docs.some((d) => d.fields.output.includes('quokka'))).toBe(true)
    // As Loupe's 2.x prune does: the row's content rewritten, with a new time_updated.
    const raw = new Database(file)
    raw.prepare(`UPDATE session_message SET data = json_remove(data, '$.content[1]'), time_updated = ? WHERE id = ?`).run(time + 5000, messageID)
    raw.close()
    expectPrunedAway(t, 'quokka')
    t.cleanup()
  })

  it('builds through the reader thread to the same documents as a build on one thread', async () => {
    const fixture = (await realFixture()).db
    const deps = await createTestDeps(fixture, {}, { searchIndex: 'worker', pipelineMinRows: 0 })
    for (let i = 0; i < 400 && deps.searchIndex.status().state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50))
    // A failed reader thread would leave its notice here (the build would still finish, on one thread).
    expect(deps.searchIndex.status()).toMatchObject({ state: 'ready', message: null })
    const piped = docKeys(indexFileFor(deps.config.dataDir, { path: deps.opencode.path, identity: deps.opencode.identity }))

    const dir = tempDir()
    const opencode = openOpenCode(copyDb(fixture, dir))
    const file = path.join(dir, 'single.sqlite')
    const { index, indexer: single } = openIndexer(opencode, file)
    while (single.buildStep(1000));
    index.close()
    opencode.db.close()

    expect(piped.keys.length).toBeGreaterThan(20)
    expect(piped).toEqual(docKeys(file))
    await deps.searchIndex.close()
    deps.cleanup()
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

describe('merging the full-text index', () => {
  const segments = (index: SqliteDb) => index.getSql<{ n: number }>(`SELECT count(DISTINCT segid) AS n FROM fts_idx`)!.n
  const setting = (index: SqliteDb, key: string) => index.getSql<{ v: number }>(`SELECT v FROM fts_config WHERE k = ?`, [key])?.v

  it('stays below FTS5\'s segment limit over thousands of build transactions', () => {
    const db = openSqlite(':memory:')
    db.raw.exec(`CREATE VIRTUAL TABLE fts USING fts5(body)`)
    setBuildMerging(db, true)
    // One segment per transaction, as the build writes them; FTS5 refuses writes at 2,000 segments.
    const insert = db.raw.prepare(`INSERT INTO fts(rowid, body) VALUES (?, ?)`)
    for (let i = 1; i <= 4100; i++) db.raw.transaction(() => insert.run(i, `word${i % 50} common text`))()
    expect(segments(db)).toBeLessThan(BUILD_CRISIS_MERGE)
    expect(matches(db, 'word7')).toBe(82)
    db.close()
  })

  it('waits for the end of the build, then leaves one segment and FTS5 merging as usual', async () => {
    const dir = tempDir()
    const opencode = openOpenCode(copyDb((await realFixture()).db, dir))
    const { index, indexer } = openIndexer(opencode, path.join(dir, 'index.sqlite'))
    const reader = createDocReader(opencode.db, indexer.sources)
    const lastRow = indexer.lastRows()
    let batches = 0
    for (let cursor = indexer.buildCursor(); cursor; cursor = indexer.buildCursor()) {
      const from = cursor
      // Batches of 16 rows: many transactions.
      const upTo = from.v1After + 16 < lastRow ? { ...from, v1After: from.v1After + 16 } : undefined
      expect(indexer.applyBatch(opencode.db.read(() => readBatch(reader, from, { rows: 1e9, bytes: 1e12 }, { upTo })))).toBe('applied')
      if (++batches === 5) {
        // Five transactions that wrote text, five segments at least: none merged yet (FTS5 merges four).
        expect(setting(index, 'automerge')).toBe(0)
        expect(segments(index)).toBeGreaterThanOrEqual(5)
      }
    }
    expect(batches).toBeGreaterThan(5)
    expect([segments(index), setting(index, 'automerge'), setting(index, 'crisismerge')]).toEqual([1, 4, 16])
    // The merge's log went into the sidecar itself: nothing is left beside it.
    expect(fs.statSync(path.join(dir, 'index.sqlite-wal')).size).toBe(0)
    const word = index.getSql<{ term: string }>(`SELECT term FROM vocab LIMIT 1`)!.term
    const found = matches(index, `"${word}"`)
    index.close()

    // The same history built in big steps holds the same documents, and finds the word as often.
    const { index: other, indexer: again } = openIndexer(opencode, path.join(dir, 'other.sqlite'))
    while (again.buildStep(1000));
    expect(docKeys(path.join(dir, 'other.sqlite'))).toEqual(docKeys(path.join(dir, 'index.sqlite')))
    expect(matches(other, `"${word}"`)).toBe(found)
    expect(found).toBeGreaterThan(0)
    other.close()
    opencode.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

describe('a prune re-index', () => {
  it('that finds the sidecar locked is tried again until it lands', async () => {
    const dir = tempDir()
    const { file, raw: db, time, sessionID } = await fixtureWithV1Session(dir, 'Locked sidecar')
    const { messageID, partIDs } = addV1Message(db, { sessionID, role: 'assistant', time, parts: [toolPart('bash', { command: 'env' }, 'dingo-token lives here')] })
    db.close()
    const deps = await createTestDeps(file)
    deps.searchIndex.runUntilIdle()
    const sidecar = indexFileFor(deps.config.dataDir, { path: deps.opencode.path, identity: deps.opencode.identity })
    const count = () => deps.searchIndex.db!.getSql<{ n: number }>(`SELECT count(*) AS n FROM fts WHERE fts MATCH 'dingo'`)!.n
    expect(count()).toBe(1)

    // Another writer holds the sidecar while the prune lands (its re-index waits 2 s, then gives up).
    const blocker = new Database(sidecar)
    blocker.exec('BEGIN IMMEDIATE')
    deps.opencode.db.raw.prepare(`DELETE FROM part WHERE id = ?`).run(partIDs[0])
    deps.events.emit('pruned', { storage: 'v1', sessionID, messageID, revision: 'r' })
    expect(count()).toBe(1)
    blocker.exec('ROLLBACK')
    blocker.close()
    for (let i = 0; i < 40 && count() > 0; i++) await new Promise((r) => setTimeout(r, 50))
    expect(count()).toBe(0)
    await deps.searchIndex.close()
    deps.cleanup()
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

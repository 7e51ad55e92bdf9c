import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { copyDb, createTestDeps, realFixture, tempDir } from '../../test/harness.js'
import { addV1Message, addV1Session, textPart, toolPart } from '../../test/search-fixtures.js'
import { openOpenCode } from '../store/open-opencode.js'
import { createDocReader, readBatch, readPruneEpoch } from './build-batch.js'
import { indexFileFor, openIndexDb } from './index-db.js'
import { createIndexer } from './indexer.js'

const docKeys = (file: string) => {
  const db = new Database(file, { readonly: true })
  const keys = (db.prepare(`SELECT gen || ' ' || session_id || ' ' || message_id || ' ' || part_key AS k FROM doc ORDER BY k`).all() as Array<{ k: string }>).map((r) => r.k)
  const fts = (db.prepare(`SELECT count(*) AS n FROM fts`).get() as { n: number }).n
  const vocab = (db.prepare(`SELECT count(*) AS n FROM vocab`).get() as { n: number }).n
  db.close()
  return { keys, fts, vocab }
}

const matches = (index: ReturnType<typeof openIndexDb>, word: string) =>
  index.getSql<{ n: number }>(`SELECT count(*) AS n FROM fts WHERE fts MATCH ?`, [word])!.n

/** A copy of the real fixture with one tool output that a prune will remove. */
async function withPrunableOutput() {
  const dir = tempDir()
  const file = copyDb((await realFixture()).db, dir)
  const db = new Database(file)
  const time = Date.now() - 60_000
  const sessionID = addV1Session(db, { title: 'Prune during build', time })
  const { messageID, partIDs } = addV1Message(db, {
    sessionID, role: 'assistant', time,
    parts: [textPart('the answer stays'), toolPart('bash', { command: 'cat secrets.txt' }, 'okapi-token lives here')],
  })
  db.close()
  const opencode = openOpenCode(file)
  const index = openIndexDb(path.join(dir, 'index.sqlite'), { path: opencode.path, identity: opencode.identity })
  const indexer = createIndexer({ sourceDb: opencode.db, layout: opencode.layout, index, now: Date.now })
  indexer.start()
  // What the reader thread does: the whole 1.x table in one batch, read before the prune.
  const batch = opencode.db.read(() =>
    readBatch(indexer.source, createDocReader(indexer.source), indexer.buildCursor()!, readPruneEpoch(index), { rows: 1e9, bytes: 1e12 }))
  // As Loupe's 1.x prune does: the technical part's row goes (its message and text stay).
  const prune = () => {
    const raw = new Database(file)
    raw.prepare(`DELETE FROM part WHERE id = ?`).run(partIDs[1])
    raw.close()
  }
  const cleanup = () => {
    index.close()
    opencode.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return { batch, index, indexer, prune, sessionID, messageID, cleanup }
}

describe('the build pipeline', () => {
  it('re-reads a batch read before a prune, so the pruned text never reaches the index', async () => {
    const t = await withPrunableOutput()
    expect(t.batch.docs.some((d) => d.fields.output.includes('okapi'))).toBe(true)
    t.prune()
    // The pruned listener's re-index, committed while the batch was on its way to the writer.
    t.indexer.reindexMessage('v1', t.sessionID, t.messageID)
    expect(t.indexer.applyBatch(t.batch)).toBe('applied')
    expect(matches(t.index, 'okapi')).toBe(0)
    expect(matches(t.index, '"answer stays"')).toBe(1)
    // The batch now lies behind the build's cursor: it is refused, not written twice.
    expect(t.indexer.applyBatch(t.batch)).toBe('moved')
    t.cleanup()
  })

  it('writes a batch as read when no prune came between (the epoch is what guards it)', async () => {
    const t = await withPrunableOutput()
    t.prune() // without the pruned listener's re-index: the epoch did not move
    expect(t.indexer.applyBatch(t.batch)).toBe('applied')
    expect(matches(t.index, 'okapi')).toBe(1)
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
    const index = openIndexDb(file, { path: opencode.path, identity: opencode.identity })
    const single = createIndexer({ sourceDb: opencode.db, layout: opencode.layout, index, now: Date.now })
    single.start()
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

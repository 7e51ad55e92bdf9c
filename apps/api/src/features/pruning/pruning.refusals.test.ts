import { computeRevision, pruneReceiptKey } from '@loupe/domain'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { diffSnapshots, snapshotDb } from '../../../test/fixtures/pruning/db-snapshot.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'
import { readMessage, withRaw } from '../../../test/fixtures/pruning/prune-helpers.js'

let SESSION = ''
let MESSAGE = '' // step-start, reasoning, text, tool(bash), tool(glob), step-finish
let USER_MESSAGE = ''
let OTHER_SESSION_MESSAGE = ''
const TOOL_INDEX = 3

type Setup = (db: Database.Database) => void
const partId = (db: Database.Database, index: number) =>
  (db.prepare(`SELECT id FROM part WHERE message_id = ? ORDER BY id`).pluck().all(MESSAGE) as string[])[index]!

/** Changes made to the file before Loupe opens it, each naming the refusal it must cause. */
const BEFORE_OPEN: Array<[string, Setup, string]> = [
  ['a compacting session', (db) => db.prepare(`UPDATE session SET time_compacting = 1 WHERE id = ?`).run(SESSION), 'maintenance_required'],
  ['a staged revert', (db) => db.prepare(`UPDATE session SET revert = '{"messageID":"msg_x"}' WHERE id = ?`).run(SESSION), 'maintenance_required'],
  ['a remotely owned event log', (db) => db.prepare(`UPDATE event_sequence SET owner_id = 'wrk_remote' WHERE aggregate_id = ?`).run(SESSION), 'unsupported_storage'],
  ['a session bound to a workspace', (db) => db.prepare(`UPDATE session SET workspace_id = 'wrk_1' WHERE id = ?`).run(SESSION), 'unsupported_storage'],
  ['an unfinished message', (db) => db.prepare(`UPDATE message SET data = json_remove(data, '$.time.completed') WHERE id = ?`).run(MESSAGE), 'not_deletable'],
  ['a running tool', (db) => db.prepare(`UPDATE part SET data = json_set(data, '$.state.status', 'running') WHERE id = ?`).run(partId(db, TOOL_INDEX)), 'not_deletable'],
  ['a part kind Loupe does not know', (db) => db.prepare(`INSERT INTO part VALUES ('prt_zzzzzzzzzzzzzzzzzzzzzzzzzz', ?, ?, 1, 1, '{"type":"hologram"}')`).run(MESSAGE, SESSION), 'not_deletable'],
  ['a message over 16 MiB stored', (db) => db.prepare(`INSERT INTO part VALUES ('prt_zzzzzzzzzzzzzzzzzzzzzzzzzz', ?, ?, 1, 1, json_object('type', 'text', 'text', ?))`).run(MESSAGE, SESSION, 'x'.repeat(17 * 1024 * 1024)), 'not_deletable'],
  ['a media ref without blob tables', (db) => db.prepare(`UPDATE part SET data = json_set(data, '$.state.output', 'media:' || ?) WHERE id = ?`).run('a'.repeat(64), partId(db, TOOL_INDEX)), 'unsupported_storage'],
  ['a media ref with unrecognized blob tables', (db) => {
    db.exec(`CREATE TABLE blob (id TEXT PRIMARY KEY, bytes BLOB); CREATE TABLE blob_ref (blob_id TEXT, session_id TEXT)`)
    db.prepare(`UPDATE part SET data = json_set(data, '$.state.output', 'media:' || ?) WHERE id = ?`).run('a'.repeat(64), partId(db, TOOL_INDEX))
  }, 'unsupported_storage'],
  ['a trigger', (db) => db.exec(`CREATE TRIGGER t AFTER DELETE ON part BEGIN SELECT 1; END`), 'unsupported_storage'],
  ['an OpenCode migration Loupe does not know', (db) => db.exec(`INSERT INTO migration VALUES ('20991231000000_future', 0)`), 'unsupported_storage'],
  ['a receipt row Loupe cannot read where the receipt goes', (db) => {
    db.exec(`CREATE TABLE loupe_prune_receipt (key TEXT PRIMARY KEY, session_id TEXT NOT NULL, message_id TEXT NOT NULL, value TEXT NOT NULL, time_created INTEGER NOT NULL)`)
    db.prepare(`INSERT INTO loupe_prune_receipt VALUES (?, ?, ?, 'garbage', 0)`).run(keyFor(db, [TOOL_INDEX]), SESSION, MESSAGE)
  }, 'unsupported_storage'],
  ['a failing receipt insert', (db) => db.exec(
    `CREATE TABLE loupe_prune_receipt (key TEXT PRIMARY KEY, session_id TEXT NOT NULL, message_id TEXT NOT NULL, value TEXT NOT NULL CHECK (value = 'never'), time_created INTEGER NOT NULL)`,
  ), 'unsupported_storage'],
]

/** The revision of MESSAGE as stored in `db`, computed the way the UI does over the native parts. */
function storedRevision(db: Database.Database) {
  const parts = db.prepare(`SELECT id, data FROM part WHERE message_id = ? ORDER BY id`).all(MESSAGE) as { id: string; data: string }[]
  return computeRevision(parts.map((p) => ({ ...JSON.parse(p.data), id: p.id, sessionID: SESSION, messageID: MESSAGE })))
}
const keyFor = (db: Database.Database, indexes: number[]) =>
  pruneReceiptKey({ storage: 'v1', sessionID: SESSION, messageID: MESSAGE, revision: storedRevision(db), indexes })

describe('every refusal writes nothing', () => {
  let fixture: string
  let deps: TestDeps | undefined
  const dirs: string[] = []

  beforeAll(async () => {
    const real = await realFixture()
    fixture = real.db
    const ids = fixtureIds(real.dir)
    ;({ tour: SESSION, tourMessage: MESSAGE, tourUser: USER_MESSAGE, imageRead: OTHER_SESSION_MESSAGE } = ids)
  })
  afterEach(() => {
    deps?.cleanup()
    deps = undefined
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  })

  async function open(setup?: Setup) {
    const dir = tempDir()
    dirs.push(dir)
    const file = copyDb(fixture, dir)
    if (setup) {
      const db = new Database(file)
      setup(db)
      db.close()
    }
    deps = await createTestDeps(file)
    return { deps, caller: createCaller({ deps }) }
  }

  async function expectRefusal(d: TestDeps, call: () => Promise<unknown>, reason: string) {
    const before = snapshotDb(d.opencode.path)
    expect(await call()).toMatchObject({ status: 'blocked', reason })
    expect(diffSnapshots(before, snapshotDb(d.opencode.path))).toEqual({ changed: [], added: [], removed: [] })
  }

  it.each(BEFORE_OPEN)('refuses %s', async (_name, setup, reason) => {
    const { deps, caller } = await open(setup)
    const revision = withRaw(deps, storedRevision)
    await expectRefusal(deps, () => caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [TOOL_INDEX] }), reason)
  })

  it.each<[string, (r: string) => { messageID: string; revision: string; indexes: number[] }, string]>([
    ['a stale revision', () => ({ messageID: MESSAGE, revision: 'f'.repeat(64), indexes: [TOOL_INDEX] }), 'conflict'],
    ['a text part', (r) => ({ messageID: MESSAGE, revision: r, indexes: [2] }), 'not_deletable'],
    ['a step-finish part', (r) => ({ messageID: MESSAGE, revision: r, indexes: [5] }), 'not_deletable'],
    ['an index past the end', (r) => ({ messageID: MESSAGE, revision: r, indexes: [99] }), 'not_deletable'],
    ['a user message', (r) => ({ messageID: USER_MESSAGE, revision: r, indexes: [0] }), 'not_deletable'],
    ['a message of another session', (r) => ({ messageID: OTHER_SESSION_MESSAGE, revision: r, indexes: [1] }), 'not_deletable'],
  ])('refuses %s', async (_name, request, reason) => {
    const { deps, caller } = await open()
    const { revision } = await readMessage(caller, SESSION, MESSAGE, 'v1')
    await expectRefusal(deps, () => caller.pruning.prune({ sessionID: SESSION, ...request(revision) }), reason)
  })

  it('answers maintenance_required while another process holds the write lock', async () => {
    const { deps, caller } = await open()
    const { revision } = await readMessage(caller, SESSION, MESSAGE, 'v1')
    const other = new Database(deps.opencode.path)
    other.exec('BEGIN IMMEDIATE')
    try {
      expect(await caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [TOOL_INDEX] }))
        .toMatchObject({ status: 'blocked', reason: 'maintenance_required' })
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    expect(await caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [TOOL_INDEX] })).toMatchObject({ status: 'pruned' })
  })

  it('answers unavailable when the file was replaced after Loupe opened it', async () => {
    const { deps, caller } = await open()
    const { revision } = await readMessage(caller, SESSION, MESSAGE, 'v1')
    const replacement = copyDb(fixture, tempDir())
    dirs.push(path.dirname(replacement))
    fs.renameSync(replacement, deps.opencode.path)
    await expectRefusal(deps, () => caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [TOOL_INDEX] }), 'unavailable')
  })

  it('answers unsupported_storage when the schema changed after Loupe opened it', async () => {
    const { deps, caller } = await open()
    const { revision } = await readMessage(caller, SESSION, MESSAGE, 'v1')
    withRaw(deps, (db) => db.exec(`ALTER TABLE part ADD COLUMN extra TEXT`))
    await expectRefusal(deps, () => caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [TOOL_INDEX] }), 'unsupported_storage')
  })

  it('answers unsupported_storage when a table the other generation writes changed after Loupe opened it', async () => {
    const { deps, caller } = await open()
    const { revision } = await readMessage(caller, SESSION, MESSAGE, 'v1')
    // session_message is 2.x's: a 1.x prune must still see the change, or a later 2.x one would skip the check.
    withRaw(deps, (db) => db.exec(`ALTER TABLE session_message ADD COLUMN extra TEXT`))
    await expectRefusal(deps, () => caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [TOOL_INDEX] }), 'unsupported_storage')
  })

  it('previews a refusal the same way before anything is confirmed', async () => {
    const { caller } = await open((db) => db.prepare(`UPDATE session SET time_compacting = 1 WHERE id = ?`).run(SESSION))
    expect(await caller.pruning.preview({ sessionID: SESSION, messageID: MESSAGE })).toMatchObject({ status: 'blocked', reason: 'maintenance_required' })
    const plan = await caller.pruning.sessionPlan({ sessionID: SESSION })
    expect(plan.block).toMatchObject({ reason: 'maintenance_required' })
    expect(plan.totals.candidates).toBeGreaterThan(0)
  })

  it('answers not_found for a session that is not in the database', async () => {
    const { caller } = await open()
    await expect(caller.pruning.prune({ sessionID: 'ses_nope', messageID: MESSAGE, revision: 'a'.repeat(64), indexes: [1] })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

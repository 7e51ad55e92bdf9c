import { pruneReceiptKey } from '@loupe/domain'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, tempDir, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { byTable, diffSnapshots, snapshotDb } from '../../../test/fixtures/pruning/db-snapshot.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'
import { readMessage, withRaw } from '../../../test/fixtures/pruning/prune-helpers.js'
import { buildV2Fixture, type V2FixtureOptions } from '../../../test/fixtures/pruning/v2-fixture.js'

let SESSION = ''
let MESSAGE = '' // reasoning-0, text-0, bash, glob
let LATER = '' // its own reasoning-0 (same id, other message)

describe('pruning 2.x storage (session_v2, session_message, kv)', () => {
  let real: string
  let deps: TestDeps | undefined
  const dirs: string[] = []

  beforeAll(async () => {
    const fixture = await realFixture()
    real = fixture.db
    ;({ tour: SESSION, tourMessage: MESSAGE, tourLater: LATER } = fixtureIds(fixture.dir).v2)
  })
  afterEach(() => {
    deps?.cleanup()
    deps = undefined
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  })

  async function open(options: V2FixtureOptions = {}, setup?: (db: Database.Database) => void) {
    const dir = tempDir()
    dirs.push(dir)
    const { file } = buildV2Fixture(real, path.join(dir, 'opencode.db'), options)
    if (setup) {
      const db = new Database(file)
      setup(db)
      db.close()
    }
    deps = await createTestDeps(file)
    expect(deps.opencode.layout.generations).toEqual([{ generation: 'v2', sessionTable: 'session_v2', experimental: false }])
    return { deps, caller: createCaller({ deps }) }
  }

  it('removes items from content[] by compare-and-swap, keeps seq, redacts their events, and keeps the receipt in kv', async () => {
    const { deps, caller } = await open()
    const before = await readMessage(caller, SESSION, MESSAGE, 'v2')
    const preview = await caller.pruning.preview({ sessionID: SESSION, messageID: MESSAGE })
    expect(preview).toMatchObject({ status: 'preview', revision: before.revision })
    if (preview.status !== 'preview') return
    expect(preview.parts.map((p) => [p.index, p.type, p.tool ?? null])).toEqual([[0, 'reasoning', null], [2, 'tool', 'bash'], [3, 'tool', 'glob']])
    const row = () => withRaw(deps, (db) => db.prepare(`SELECT seq, time_updated, data FROM session_message WHERE id = ?`).get(MESSAGE) as { seq: number; time_updated: number; data: string })
    const stored = row()
    const snapshot = snapshotDb(deps.opencode.path)

    const result = await caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision: before.revision, indexes: [0, 2] })
    const after = await readMessage(caller, SESSION, MESSAGE, 'v2')
    expect(result).toEqual({ status: 'pruned', messageID: MESSAGE, revision: after.revision, removedCount: 2 })
    expect(after.content).toEqual([before.content[1], before.content[3]])
    const { content: _c, ...rest } = JSON.parse(stored.data) as Record<string, unknown>
    const { content: _c2, ...restAfter } = JSON.parse(row().data) as Record<string, unknown>
    expect(restAfter).toEqual(rest)
    expect(row()).toMatchObject({ seq: stored.seq, time_updated: TEST_NOW })

    const diff = diffSnapshots(snapshot, snapshotDb(deps.opencode.path))
    expect(byTable(diff.removed)).toEqual({})
    expect(byTable(diff.added)).toEqual({ kv: 1 })
    expect(byTable(diff.changed)).toMatchObject({ session_message: 1 })
    withRaw(deps, (db) => {
      const key = pruneReceiptKey({ storage: 'v2', sessionID: SESSION, messageID: MESSAGE, revision: before.revision, indexes: [0, 2] })
      expect(JSON.parse(db.prepare(`SELECT value FROM kv WHERE key = ?`).pluck().get(`loupe:prune-receipt:${key}`) as string)).toEqual(result)
      const changedEvents = db.prepare(`SELECT type, data FROM event WHERE rowid IN (${diff.changed.filter((k) => k.startsWith('event:')).map((k) => k.slice(6)).join(',')})`).all() as { type: string; data: string }[]
      expect(changedEvents.map((e) => e.type).sort()).toEqual(['session.next.reasoning.ended.1', 'session.next.tool.called.1', 'session.next.tool.input.ended.1', 'session.next.tool.success.1'])
      for (const e of changedEvents) expect(JSON.parse(e.data)).toMatchObject({ assistantMessageID: MESSAGE })
      const bash = (before.content[2] as { id: string }).id
      const success = JSON.parse(db.prepare(`SELECT data FROM event WHERE type = 'session.next.tool.success.1' AND json_extract(data, '$.callID') = ?`).pluck().get(bash) as string)
      expect(success).toMatchObject({ callID: bash, structured: {}, content: [{ type: 'text', text: '' }] })
      // The later message's reasoning-0 is another item: untouched.
      const laterReasoning = db.prepare(`SELECT json_extract(data, '$.text') FROM event WHERE type = 'session.next.reasoning.ended.1' AND json_extract(data, '$.assistantMessageID') = ?`).pluck().get(LATER)
      expect(laterReasoning).not.toBe('')
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    })

    const again = await caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision: before.revision, indexes: [2, 0] })
    expect(again).toEqual(result)
    expect(withRaw(deps, (db) => db.prepare(`SELECT count(*) FROM kv`).pluck().get())).toBe(1)
  })

  it.each<[string, () => string, string]>([
    ['an execution claim (time_suspended)', () => `UPDATE session_v2 SET time_suspended = 1 WHERE id = '${SESSION}'`, 'maintenance_required'],
    ['a compaction', () => `UPDATE session_v2 SET time_compacting = 1 WHERE id = '${SESSION}'`, 'maintenance_required'],
    ['a staged revert', () => `UPDATE session_v2 SET revert = '{"messageID":"msg_x"}' WHERE id = '${SESSION}'`, 'maintenance_required'],
    ['a remote event owner', () => `UPDATE event_sequence SET owner_id = 'wrk_x' WHERE aggregate_id = '${SESSION}'`, 'unsupported_storage'],
    ['a workspace binding', () => `UPDATE session_v2 SET workspace_id = 'wrk_x' WHERE id = '${SESSION}'`, 'unsupported_storage'],
    ['an unfinished message', () => `UPDATE session_message SET data = json_remove(data, '$.time.completed') WHERE id = '${MESSAGE}'`, 'not_deletable'],
    ['a streaming tool', () => `UPDATE session_message SET data = json_set(data, '$.content[2].state.status', 'streaming') WHERE id = '${MESSAGE}'`, 'not_deletable'],
    ['a content kind Loupe does not know', () => `UPDATE session_message SET data = json_insert(data, '$.content[#]', json('{"type":"file","uri":"x"}')) WHERE id = '${MESSAGE}'`, 'not_deletable'],
  ])('refuses %s and writes nothing', async (_name, sql, reason) => {
    const { deps, caller } = await open({}, (db) => db.exec(sql()))
    const { revision } = await readMessage(caller, SESSION, MESSAGE, 'v2')
    const snapshot = snapshotDb(deps.opencode.path)
    expect(await caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [0] })).toMatchObject({ status: 'blocked', reason })
    expect(diffSnapshots(snapshot, snapshotDb(deps.opencode.path))).toEqual({ changed: [], added: [], removed: [] })
  })

  it('leaves the content unchanged when the receipt cannot be written', async () => {
    const kvSql = "CREATE TABLE `kv` (`key` text PRIMARY KEY CHECK (`key` NOT LIKE 'loupe:%'), `value` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL);"
    const { deps, caller } = await open({ kvSql })
    const { revision } = await readMessage(caller, SESSION, MESSAGE, 'v2')
    const snapshot = snapshotDb(deps.opencode.path)
    expect(await caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [0] })).toMatchObject({ status: 'blocked', reason: 'unsupported_storage' })
    expect(diffSnapshots(snapshot, snapshotDb(deps.opencode.path))).toEqual({ changed: [], added: [], removed: [] })
  })

  it('matches 2.0-style reasoning (no id) by its text when redacting events', async () => {
    const { deps, caller } = await open({ reasoningWithoutIds: true })
    const { revision, content } = await readMessage(caller, SESSION, MESSAGE, 'v2')
    expect(content[0]).not.toHaveProperty('id')
    expect(await caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision, indexes: [0] })).toMatchObject({ status: 'pruned' })
    const texts = withRaw(deps, (db) => db.prepare(`SELECT json_extract(data, '$.assistantMessageID') AS m, json_extract(data, '$.text') AS t FROM event WHERE type = 'session.next.reasoning.ended.1'`).all() as { m: string; t: string }[])
    expect(texts.find((x) => x.m === MESSAGE)?.t).toBe('')
    expect(texts.filter((x) => x.m !== MESSAGE).every((x) => x.t.length > 0)).toBe(true)
  })

  it('prunes sessions whose log was cleared by an import (sequence row, no events)', async () => {
    const { caller } = await open({ events: false })
    const plan = await caller.pruning.sessionPlan({ sessionID: SESSION })
    const { results } = await caller.pruning.pruneBatch({ sessionID: SESSION, candidates: plan.candidates.map((c) => ({ messageID: c.messageID, revision: c.revision })) })
    expect(results.every((r) => r.result.status === 'pruned')).toBe(true)
    expect((await caller.pruning.sessionPlan({ sessionID: SESSION })).totals.candidates).toBe(0)
  })
})

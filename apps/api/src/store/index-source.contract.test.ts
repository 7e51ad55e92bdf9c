import Database from 'better-sqlite3'
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NativeMessage } from '@loupe/domain'
import { tempDir, TEST_NOW } from '../../test/harness.js'
import { addV1Message, addV1Session, addV2Message, addV2Session, createV2Db, fixtureWithV1Session, textPart, toolPart } from '../../test/search-fixtures.js'
import { NO_SCOPE, type DocInput, type IndexSourceStore, type SourceRow } from './index-source.js'
import { createIndexSources } from './index-sources.js'
import { openOpenCode, type OpenCodeHandle } from './open-opencode.js'

const T = TEST_NOW - 600_000

/** One generation's database: a session with a user turn and a tool call, and a session behind a staged revert. */
interface Seeded {
  file: string
  dir: string
  sessionID: string
  toolMessageID: string
  revertedID: string
  revertFrom: string
}

async function seedV1(): Promise<Seeded> {
  const dir = tempDir()
  const { file, raw, sessionID } = await fixtureWithV1Session(dir, 'Contract heron', T)
  raw.prepare(`UPDATE session SET directory = '/srv/heron' WHERE id = ?`).run(sessionID)
  addV1Message(raw, { sessionID, role: 'user', time: T + 1, parts: [textPart('where does the heron nest')] })
  const tool = addV1Message(raw, { sessionID, role: 'assistant', time: T + 2, parts: [textPart('looking'), toolPart('bash', { command: 'grep heron' }, 'heron.txt: reeds')] })
  const revertedID = addV1Session(raw, { title: 'Reverted heron', time: T + 10, directory: '/srv/other' })
  const revertFrom = addV1Message(raw, { sessionID: revertedID, role: 'user', time: T + 11, parts: [textPart('undo me')] }).messageID
  raw.prepare(`UPDATE session SET revert = ? WHERE id = ?`).run(JSON.stringify({ messageID: revertFrom }), revertedID)
  raw.close()
  return { file, dir, sessionID, toolMessageID: tool.messageID, revertedID, revertFrom }
}

function seedV2(): Seeded {
  const dir = tempDir()
  const file = createV2Db(dir)
  const raw = new Database(file)
  const sessionID = addV2Session(raw, { title: 'Contract heron', time: T, directory: '/srv/heron' })
  addV2Message(raw, { sessionID, type: 'user', time: T + 1, data: { text: 'where does the heron nest', time: { created: T + 1 } } })
  const toolMessageID = addV2Message(raw, {
    sessionID, type: 'assistant', time: T + 2,
    data: {
      agent: 'build', model: { id: 'm1', providerID: 'mock' }, time: { created: T + 2, completed: T + 3 }, finish: 'stop',
      tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
      content: [
        { type: 'text', text: 'looking' },
        { type: 'tool', id: 'call_1', name: 'bash', state: { status: 'completed', input: { command: 'grep heron' }, content: [{ type: 'text', text: 'heron.txt: reeds' }] } },
      ],
    },
  })
  const revertedID = addV2Session(raw, { title: 'Reverted heron', time: T + 10, directory: '/srv/other' })
  const revertFrom = addV2Message(raw, { sessionID: revertedID, type: 'user', time: T + 11, data: { text: 'undo me', time: { created: T + 11 } } })
  raw.prepare(`UPDATE session_v2 SET revert = ? WHERE id = ?`).run(JSON.stringify({ messageID: revertFrom }), revertedID)
  raw.close()
  return { file, dir, sessionID, toolMessageID, revertedID, revertFrom }
}

const docsOf = (source: IndexSourceStore, rows: readonly SourceRow[]) => {
  const out: DocInput[] = []
  for (const row of rows) source.docs(row, NO_SCOPE, (doc) => out.push(doc))
  return out
}

/** Does the read store's message hold what `locate` points at: the part (1.x) or the content item (2.x)? */
const holdsTool = (message: NativeMessage | undefined, at: { partID?: string; index?: number }) => {
  if (!message) return false
  const item = message.storage === 'v1'
    ? message.parts.find((p) => p.id === at.partID)
    : Array.isArray(message.message.content) && at.index !== undefined ? message.message.content[at.index] : undefined
  return typeof item === 'object' && item !== null && 'type' in item && item.type === 'tool'
}

describe.each([['1.x', seedV1], ['2.x', seedV2]] as const)('the index source role over %s storage', (_name, seed) => {
  let s: Seeded
  let opencode: OpenCodeHandle
  let source: IndexSourceStore
  beforeAll(async () => {
    s = await seed()
    opencode = openOpenCode(s.file)
    const owner = opencode.stores.all.find((store) => store.getSession(opencode.db, s.sessionID))!
    source = owner.indexSource
  })
  afterAll(() => {
    opencode.db.close()
    fs.rmSync(s.dir, { recursive: true, force: true })
  })

  it('reads rows in rowid order, bounded, with the stamps and counts of the table', () => {
    const db = opencode.db
    const rows = source.chunk(db, 0, 1e9)
    expect(rows.map((r) => r.rid)).toEqual([...rows.map((r) => r.rid)].sort((a, b) => a - b))
    expect(source.count(db)).toEqual({ rows: rows.length, last: rows.at(-1)!.rid })
    expect(source.lastRowid(db)).toBe(rows.at(-1)!.rid)
    const [a, b] = [rows[0]!.rid, rows[Math.min(2, rows.length - 1)]!.rid]
    expect(source.chunk(db, a, 1e9, b).map((r) => r.rid)).toEqual(rows.filter((r) => r.rid > a && r.rid <= b).map((r) => r.rid))
    expect(source.stamps(db, 0, rows.at(-1)!.rid)).toEqual(rows.map(({ rid, time_updated, len }) => ({ rid, time_updated, len })))
  })

  it('maps each document back to the row that owns it, and the hit it opens to the read store', () => {
    const db = opencode.db
    const rows = source.sessionRows(db, s.sessionID, 0)
    const docs = docsOf(source, rows)
    expect(new Set(docs.map((d) => d.fields.kind))).toEqual(new Set(['user', 'text', 'tool']))
    const live = source.liveKeys(db, s.sessionID)
    for (const doc of docs) {
      const key = source.sourceKey({ message_id: doc.messageID, part_key: doc.partKey })
      expect(live.has(key)).toBe(true)
      expect(source.existing(db, [key]).get(key)).toBe(doc.srcUpdated)
      const owners = source.messageRows(db, doc.messageID).map((r) => source.owner(r))
      expect(owners.every((o) => o.sessionID === s.sessionID && o.messageID === doc.messageID)).toBe(true)
      expect(owners.some((o) => o.partKey === null || o.partKey === doc.partKey)).toBe(true)
    }
    const tool = docs.find((d) => d.fields.kind === 'tool')!
    expect(tool.messageID).toBe(s.toolMessageID)
    const store = opencode.stores.all.find((x) => x.indexSource === source)!
    const [message] = store.loadMessages(db, s.sessionID, [tool.messageID])
    expect(holdsTool(message, source.locate(tool.partKey))).toBe(true)
    expect(source.locate('#title')).toEqual({})
  })

  it('reads sessions, heads, scopes and staged reverts', () => {
    const db = opencode.db
    const mine = source.sessions(db).filter((x) => x.id === s.sessionID || x.id === s.revertedID)
    expect(mine.map((x) => [x.gen, x.title]).sort()).toEqual([[source.gen, 'Contract heron'], [source.gen, 'Reverted heron']])
    expect(source.session(db, s.sessionID)).toMatchObject({ gen: source.gen, directory: '/srv/heron' })
    const heads = source.heads(db, [s.sessionID, s.revertedID, 'ses_missing'])
    expect([...heads.keys()].sort()).toEqual([s.sessionID, s.revertedID].sort())
    expect(heads.get(s.revertedID)).toEqual({ title: 'Reverted heron', directory: '/srv/other', revertFrom: s.revertFrom })
    expect(source.revertBoundaries(db).get(s.revertedID)).toBe(s.revertFrom)
    expect(source.hasSession(db, 'directory', '/srv/heron')).toBe(true)
    expect(source.hasSession(db, 'directory', '/srv/nowhere')).toBe(false)
  })

  it('is built the same on a thread of its own, from the probed layout', () => {
    const own = createIndexSources(opencode.layout).of(source.gen)!
    expect(own.chunk(opencode.db, 0, 1e9)).toEqual(source.chunk(opencode.db, 0, 1e9))
    expect(own.sessions(opencode.db)).toEqual(source.sessions(opencode.db))
  })
})

describe('1.18 experimental rows, which share the `session` table', () => {
  it('belong to the 2.x role alone, in the index source as in the read store', async () => {
    const dir = tempDir()
    const { file, raw, sessionID: v1Session } = await fixtureWithV1Session(dir, 'Plain 1.x', T)
    const experimental = addV1Session(raw, { title: 'Through /api/session', time: T + 5 })
    raw.prepare(`INSERT INTO session_message(id, session_id, type, seq, time_created, time_updated, data) VALUES ('msg_x1', ?, 'user', 0, ?, ?, ?)`)
      .run(experimental, T + 6, T + 6, JSON.stringify({ text: 'hello' }))
    raw.close()
    const opencode = openOpenCode(file)
    const [v1, v2] = opencode.stores.all
    expect(opencode.stores.all.map((x) => x.layout.experimental)).toEqual([false, true])
    const ids = (role: IndexSourceStore) => new Set(role.sessions(opencode.db).map((x) => x.id))
    const [plain, shared] = [ids(v1!.indexSource), ids(v2!.indexSource)]
    expect([plain.has(v1Session), plain.has(experimental), shared.has(v1Session), shared.has(experimental)]).toEqual([true, false, false, true])
    expect([...plain].filter((id) => shared.has(id))).toEqual([])
    for (const store of [v1!, v2!]) {
      const listed = store.listSessions(opencode.db, { includeArchived: true, rootsOnly: false, limit: 1e6 }).map((x) => x.id)
      expect(new Set(listed)).toEqual(ids(store.indexSource))
    }
    opencode.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

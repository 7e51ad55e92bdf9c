import type { JsonObject } from '@loupe/domain'
import Database from 'better-sqlite3'
import os from 'node:os'
import path from 'node:path'
import type { SqliteDb } from '../src/lib/sqlite.js'
import { createV2Writer, openV2Db } from './fixtures/v2-db.js'
import { copyDb, realFixture } from './harness.js'

/**
 * Rows written the way OpenCode writes them, for search tests that need exact content:
 * 1.x `session`/`message`/`part` (data JSON without ids) and 2.x `session_v2`/`session_message`,
 * each change bumping the session's `event_sequence` as OpenCode's projector does.
 */

let counter = 0
/** An OpenCode-style id: prefix, 12 hex time characters, 14 more characters. */
export function makeId(prefix: 'ses' | 'msg' | 'prt', time: number): string {
  counter = (counter + 1) % 4096
  let hex = (BigInt(time) * 4096n + BigInt(counter)) & 0xffffffffffffn
  if (prefix === 'ses') hex = ~hex & 0xffffffffffffn
  return `${prefix}_${hex.toString(16).padStart(12, '0')}${String(counter).padStart(14, 'x')}`
}

export const bumpSequence = (db: Database.Database, sessionID: string) =>
  db.prepare(`INSERT INTO event_sequence(aggregate_id, seq) VALUES (?, 0) ON CONFLICT(aggregate_id) DO UPDATE SET seq = seq + 1`).run(sessionID)

export interface SessionSeed {
  title: string
  directory?: string
  projectID?: string
  time: number
}

export function addV1Session(db: Database.Database, seed: SessionSeed): string {
  const id = makeId('ses', seed.time)
  db.prepare(`INSERT OR IGNORE INTO project(id, worktree, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, '[]')`)
    .run(seed.projectID ?? 'global', seed.directory ?? '/', seed.time, seed.time)
  db.prepare(`INSERT INTO session(id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, '1.18.33', ?, ?)`)
    .run(id, seed.projectID ?? 'global', 'quiet-otter', seed.directory ?? '/srv/app', seed.title, seed.time, seed.time)
  bumpSequence(db, id)
  return id
}

/**
 * A copy of the real OpenCode fixture in `dir` with one more 1.x session, its file still open for
 * more rows (close `raw` before anything else opens the file).
 */
export async function fixtureWithV1Session(dir: string, title: string, time = Date.now() - 60_000) {
  const file = copyDb((await realFixture()).db, dir)
  const raw = new Database(file)
  return { file, raw, time, sessionID: addV1Session(raw, { title, time }) }
}

export interface MessageSeed {
  sessionID: string
  role: 'user' | 'assistant'
  time: number
  /** `part.data` objects (without ids). */
  parts: Array<Record<string, unknown>>
  completed?: boolean
}

/** One 1.x message with its parts; returns the message id and part ids. */
export function addV1Message(db: Database.Database, seed: MessageSeed): { messageID: string; partIDs: string[] } {
  const messageID = makeId('msg', seed.time)
  const time = seed.role === 'assistant' && seed.completed !== false ? { created: seed.time, completed: seed.time + 500 } : { created: seed.time }
  const info = seed.role === 'user'
    ? { role: 'user', time, agent: 'build', model: { providerID: 'mock', modelID: 'm1' } }
    : { role: 'assistant', time, parentID: 'msg_parent', modelID: 'm1', providerID: 'mock', mode: 'build', agent: 'build', path: { cwd: '/', root: '/' }, cost: 0, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } }, finish: 'stop' }
  db.prepare(`INSERT INTO message(id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`)
    .run(messageID, seed.sessionID, seed.time, seed.time, JSON.stringify(info))
  const partIDs = seed.parts.map((part, i) => {
    const id = makeId('prt', seed.time + i)
    db.prepare(`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(id, messageID, seed.sessionID, seed.time + i, seed.time + i, JSON.stringify(part))
    return id
  })
  bumpSequence(db, seed.sessionID)
  return { messageID, partIDs }
}

export const textPart = (text: string) => ({ type: 'text', text, time: { start: 1, end: 2 } })
export const reasoningPart = (text: string) => ({ type: 'reasoning', text, time: { start: 1, end: 2 } })
export const toolPart = (tool: string, input: Record<string, unknown>, output: string, title = '') => ({
  type: 'tool', tool, callID: 'call_1',
  state: { status: 'completed', input, output, title, metadata: { output }, time: { start: 1, end: 2 } },
})

/** A fresh 2.x database from the reconstructed 2.x schema. */
export function createV2Db(dir: string): string {
  const file = path.join(dir, 'opencode.db')
  openV2Db(file).close()
  return file
}

export function addV2Session(db: Database.Database, seed: SessionSeed & { revert?: { messageID: string } }): string {
  const id = makeId('ses', seed.time)
  db.prepare(`INSERT OR IGNORE INTO project(id, worktree, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, '[]')`)
    .run(seed.projectID ?? 'global', seed.directory ?? '/', seed.time, seed.time)
  createV2Writer(db).session({
    id, project_id: seed.projectID ?? 'global', slug: 'brave-lynx', directory: seed.directory ?? '/srv/app', title: seed.title, version: '2.0.26',
    revert: seed.revert ? JSON.stringify(seed.revert) : null, time_created: seed.time, time_updated: seed.time,
  })
  bumpSequence(db, id)
  return id
}

/** One 2.x `session_message` row (`data` without id and type); seq is the session's next. */
export function addV2Message(db: Database.Database, seed: { sessionID: string; type: string; time: number; data: Record<string, unknown> }): string {
  const id = makeId('msg', seed.time)
  const seq = (db.prepare(`SELECT coalesce(max(seq), -1) + 1 AS s FROM session_message WHERE session_id = ?`).get(seed.sessionID) as { s: number }).s
  createV2Writer(db).message({ id, session_id: seed.sessionID, type: seed.type, seq, time_created: seed.time, time_updated: seed.time, data: seed.data as JsonObject })
  bumpSequence(db, seed.sessionID)
  return id
}

/** Where the vendored harness caches the OpenCode binary (as tools/opencode-real does). */
export const opencodeRealCache = () => process.env.OPENCODE_REAL_CACHE ?? path.join(os.homedir(), '.cache', 'opencode-real')

/**
 * Plain words (a–z, `min`–`max` letters; meta tokens `z` + a letter left out) that the sidecar has
 * in `docs[0]`–`docs[1]` documents, most documents first: queries with a known, modest answer.
 */
export function indexedWords(index: SqliteDb, opts: { docs: [number, number]; letters: [number, number]; limit: number }): string[] {
  index.raw.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_words USING fts5vocab(main, 'fts', 'row')`)
  return index.allSql<{ term: string }>(
    `SELECT term FROM temp.fts_words WHERE doc BETWEEN ? AND ? AND length(term) BETWEEN ? AND ?
       AND term NOT GLOB '*[^a-z]*' AND term NOT GLOB 'z[ktspd]*' ORDER BY doc DESC, term LIMIT ?`,
    [...opts.docs, ...opts.letters, opts.limit]).map((r) => r.term)
}

import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { openSqlite, type SqliteDb } from '../lib/sqlite.js'
import type { FileIdentity } from '../store/open-opencode.js'
import { FTS_WEIGHTS } from './fts-query.js'

/** How long the sidecar's connections wait for its lock. */
const INDEX_BUSY_MS = 5000

/** Bump to rebuild every sidecar after a change of schema, tokenizer or extraction. */
export const INDEX_SCHEMA_VERSION = 6

export interface IndexSource {
  path: string
  identity: FileIdentity
}

/** Where the sidecar of an OpenCode database lives: Loupe's data dir, keyed by the file's path and identity. */
export function indexFileFor(dataDir: string, source: IndexSource): string {
  const key = createHash('sha256').update(`${source.path}\0${source.identity.dev}\0${source.identity.ino}`).digest('hex').slice(0, 16)
  return path.join(dataDir, 'search', `index-${key}.sqlite`)
}

export type Fts5Support = { ok: true } | { ok: false; reason: string }

/**
 * FTS5 and its trigram tokenizer must be compiled into this SQLite; a build without them searches
 * by scanning. Probed on a throwaway in-memory connection: a temp table on OpenCode's connection
 * would list a `temp` database there, which the write fences read as an attached database.
 */
export function checkFts5(): Fts5Support {
  const probe = openSqlite(':memory:')
  try {
    probe.raw.exec(`CREATE VIRTUAL TABLE fts5_probe USING fts5(x, tokenize='trigram')`)
    return { ok: true }
  } catch (error) {
    return { ok: false, reason: `this SQLite (${sqliteVersion(probe)}) lacks FTS5 with the trigram tokenizer: ${(error as Error).message}` }
  } finally {
    probe.close()
  }
}

export const sqliteVersion = (db: SqliteDb) => db.getSql<{ v: string }>(`SELECT sqlite_version() AS v`)?.v ?? '?'

/** The index's tokenizer; JS snippets rely on reading tokens as it does (see history.snippets.test). */
export const FTS_TOKENIZER = 'unicode61 remove_diacritics 2'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS doc(
  id INTEGER PRIMARY KEY,
  gen TEXT NOT NULL,
  session_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  part_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  tool TEXT,
  time INTEGER NOT NULL,
  src_updated INTEGER NOT NULL,
  bytes INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS doc_key ON doc(gen, session_id, message_id, part_key);
CREATE TABLE IF NOT EXISTS sess(
  gen TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER, synced INTEGER NOT NULL,
  title TEXT NOT NULL, project_id TEXT NOT NULL, directory TEXT NOT NULL, time_created INTEGER NOT NULL,
  PRIMARY KEY (gen, id)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, tool, input, output, meta, tokenize='${FTS_TOKENIZER}');
CREATE TABLE IF NOT EXISTS vocab(id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
CREATE VIRTUAL TABLE IF NOT EXISTS vocab_tri USING fts5(term, content='vocab', content_rowid='id', tokenize='trigram');
`

/**
 * Open (creating or, when stale, recreating) the sidecar. The document id mirrors `time_ms * 4096 + slot`
 * (doc-id.ts), so rowid order is newest first: the candidate cap keeps the newest matches and
 * `since`/`until` are rowid ranges. Only plain FTS5 options are used, so the sqlite3 CLI of
 * Debian 12 (3.40) can open the same file.
 */
export function openIndexDb(file: string, source: IndexSource): SqliteDb {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const stamp = JSON.stringify({ v: INDEX_SCHEMA_VERSION, path: source.path, dev: source.identity.dev, ino: source.identity.ino })
  let db = openSqlite(file, { busyTimeoutMs: INDEX_BUSY_MS })
  let current: string | undefined
  try {
    current = tableExists(db, 'meta') ? db.getSql<{ value: string }>(`SELECT value FROM meta WHERE key = 'stamp'`)?.value : undefined
    if (current !== undefined && current !== stamp) throw new Error('stale sidecar')
  } catch {
    // Another database's index, an older schema, or a damaged file: it is only a cache, start over.
    db.close()
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true })
    db = openSqlite(file, { busyTimeoutMs: INDEX_BUSY_MS })
    current = undefined
  }
  // Larger pages halve the per-page work of writing and merging FTS5 segments (pgsz below).
  if (current === undefined) db.raw.pragma('page_size = 16384')
  db.raw.pragma('journal_mode = WAL')
  // The sidecar can always be rebuilt from OpenCode's file, so it trades durability for speed;
  // deleted (pruned) text is overwritten in place rather than left readable in the page.
  db.raw.pragma('synchronous = OFF')
  db.raw.pragma('secure_delete = FAST')
  // A checkpoint after a big transaction (the build's merge) trims the log back to this.
  db.raw.pragma('journal_size_limit = 67108864')
  if (current === stamp) return db
  db.raw.exec(SCHEMA)
  db.write(() => {
    db.runSql(`INSERT INTO fts(fts, rank) VALUES ('rank', ?)`, [`bm25(${FTS_WEIGHTS.join(', ')})`])
    db.runSql(`INSERT INTO fts(fts, rank) VALUES ('hashsize', 67108864)`)
    db.runSql(`INSERT INTO fts(fts, rank) VALUES ('pgsz', 16000)`)
    db.runSql(`INSERT OR REPLACE INTO meta(key, value) VALUES ('stamp', ?)`, [stamp])
  })
  return db
}

/** While the build runs, a level of this many segments is merged (FTS5's own default is 16). */
export const BUILD_CRISIS_MERGE = 1000

/**
 * While the initial build runs, FTS5 does not merge its segments as it goes: nothing searches the
 * index until it is ready (searches scan meanwhile), and one merge at the end (`optimize`) writes
 * each segment once, where merging as it goes rewrote the text several times. A level still merges at 1,000 segments
 * (one per build transaction): FTS5 refuses any write once an index holds 2,000 segments, so two
 * full levels must stay below that (at 1,999 a build failed for good at transaction 3,998).
 * Afterwards FTS5's own defaults apply again.
 */
export function setBuildMerging(db: SqliteDb, building: boolean): void {
  // FTS5 takes these only as SQL integers, and a bound JS number is a double.
  db.runSql(`INSERT INTO fts(fts, rank) VALUES ('automerge', ${building ? 0 : 4})`)
  db.runSql(`INSERT INTO fts(fts, rank) VALUES ('crisismerge', ${building ? BUILD_CRISIS_MERGE : 16})`)
}

/**
 * Copy the log into the sidecar and empty it, when a transaction has just rewritten most of it (the
 * build's merge, ~100 MB). Best effort: a search still reading the log makes it give up after a
 * moment, and a later checkpoint trims the log to `journal_size_limit` instead.
 */
export function truncateLog(db: SqliteDb): void {
  try {
    db.raw.pragma('busy_timeout = 250')
    db.raw.pragma('wal_checkpoint(TRUNCATE)')
  } catch {
    // Only disk space is at stake, and the next checkpoint recovers it.
  } finally {
    db.raw.pragma(`busy_timeout = ${INDEX_BUSY_MS}`)
  }
}

const tableExists = (db: SqliteDb, name: string) =>
  db.getSql<{ n: number }>(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?`, [name])!.n > 0

export function readMeta<T>(db: SqliteDb, key: string): T | undefined {
  const row = db.getSql<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, [key])
  return row ? (JSON.parse(row.value) as T) : undefined
}

export function writeMeta(db: SqliteDb, key: string, value: unknown): void {
  db.runSql(`INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`, [key, JSON.stringify(value)])
}

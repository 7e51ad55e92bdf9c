import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { TITLE_KEY, type SourceSession } from '../store/index-source.js'

/** The sidecar's record of a session, as of its last sync. */
export interface SessRow {
  gen: StorageGeneration
  id: string
  seq: number | null
  synced: number
  title: string
  project_id: string
  directory: string
}

/** A stored document, as the reconcile sweep checks it against OpenCode. */
export interface SweepDoc {
  id: number
  gen: StorageGeneration
  session_id: string
  message_id: string
  part_key: string
  src_updated: number
}

/** Rows updated this long before a sync are read again at the next one (commit vs. Date.now() skew). */
export const SYNC_SLACK_MS = 5000

/** Every session the sidecar knows. */
export const knownSessions = (index: SqliteDb): SessRow[] =>
  index.allSql<SessRow>(`SELECT gen, id, seq, synced, title, project_id, directory FROM sess`)

/** Record a session as synced at `synced`, with its event sequence. */
export function recordSessionRow(index: SqliteDb, s: SourceSession, seq: number | null, synced: number): void {
  index.runSql(
    `INSERT OR REPLACE INTO sess(gen, id, seq, synced, title, project_id, directory, time_created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [s.gen, s.id, seq, synced, s.title, s.project_id, s.directory, s.time_created])
}

/** The newest source `time_updated` among a session's indexed documents (titles aside). */
export const newestSourceUpdate = (index: SqliteDb, gen: string, sessionID: string): number | null =>
  index.getSql<{ m: number | null }>(`SELECT max(src_updated) AS m FROM doc WHERE gen = ? AND session_id = ? AND part_key <> ?`, [gen, sessionID, TITLE_KEY])!.m

/** The next `limit` documents (titles aside) after id `after`, in id order. */
export const docsAfter = (index: SqliteDb, after: number, limit: number): SweepDoc[] =>
  index.allSql<SweepDoc>(
    `SELECT id, gen, session_id, message_id, part_key, src_updated FROM doc WHERE id > ? AND part_key <> ? ORDER BY id LIMIT ?`,
    [after, TITLE_KEY, limit])

/** Merge the full-text index into one segment: every query walks each segment there is. */
export const optimizeFts = (index: SqliteDb): void => void index.runSql(`INSERT INTO fts(fts) VALUES ('optimize')`)

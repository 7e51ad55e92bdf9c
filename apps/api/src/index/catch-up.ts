import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { sessionKey, titleDoc, type SessionScope } from './index-docs.js'
import { TITLE_KEY, type IndexWriter } from './index-writer.js'
import type { IndexSourceReader, SourceSession, V1PartRow, V2MessageRow } from './opencode-source.js'

const SLACK_MS = 5000

interface SessRow {
  gen: StorageGeneration
  id: string
  seq: number | null
  synced: number
  title: string
  project_id: string
  directory: string
}

interface DocRow {
  id: number
  gen: StorageGeneration
  session_id: string
  message_id: string
  part_key: string
  src_updated: number
}

export interface CatchUpDeps {
  source: IndexSourceReader
  writer: IndexWriter
  index: SqliteDb
  now: () => number
  scopes: Map<string, SessionScope>
  recordSession(s: SourceSession, seq: number | null, synced: number): void
  indexV1Rows(rows: readonly V1PartRow[], force?: boolean): number
  indexV2Row(row: V2MessageRow, force?: boolean): { bytes: number; removed: number }
  inTransaction<T>(fn: () => T): T | undefined
}

/**
 * Incremental upkeep once the build is done. The change feed is OpenCode's own `event_sequence`:
 * every durable change of a session (1.x and 2.x) bumps its seq, so a changed seq marks the
 * session dirty and only its rows updated since the last sync are read again. Without an event
 * log, a newer session `time_updated` does the same. Deleted rows are reconciled per dirty
 * session; rows others delete or edit without an event are found by the slow sweep.
 */
export function createCatchUp(d: CatchUpDeps) {
  let sweepAfter = 0

  /** Bring one session up to date; `since` null means every row (a new session or a moved one). */
  function resync(s: SourceSession, seq: number | null, known: SessRow | undefined) {
    const started = d.now()
    const moved = !!known && (known.project_id !== s.project_id || known.directory !== s.directory)
    // Re-read rows updated since the last sync by the wall clock, or since the newest row indexed,
    // whichever is earlier: a writer whose timestamps lag the clock is still caught.
    const newest = d.index.getSql<{ m: number | null }>(`SELECT max(src_updated) AS m FROM doc WHERE gen = ? AND session_id = ? AND part_key <> ?`, [s.gen, s.id, TITLE_KEY])!.m
    const since = known && !moved ? Math.min(known.synced, (newest ?? 0) - SLACK_MS) : 0
    d.recordSession(s, seq, started - SLACK_MS)
    if (s.gen === 'v1') {
      d.indexV1Rows(d.source.v1SessionRows(s.id, since), moved)
      const live = d.source.v1SessionPartIds(s.id)
      const gone = d.writer.sessionDocs('v1', s.id).filter((doc) => doc.part_key !== TITLE_KEY && !live.has(doc.part_key))
      d.writer.removeIds(gone.map((doc) => doc.id))
    } else {
      for (const row of d.source.v2SessionRows(s.id, since)) d.indexV2Row(row, moved)
      const live = d.source.v2SessionMessageIds(s.id)
      const gone = d.writer.sessionDocs('v2', s.id).filter((doc) => doc.part_key !== TITLE_KEY && !live.has(doc.message_id))
      d.writer.removeIds(gone.map((doc) => doc.id))
    }
    const title = titleDoc(s)
    if (title) d.writer.upsert(title, { force: !known || known.title !== s.title || moved })
    else d.writer.remove({ gen: s.gen, sessionID: s.id, messageID: '', partKey: TITLE_KEY })
  }

  /** Sessions whose rows may have changed since their last sync, and sessions that are gone. */
  function findDirty(): { dirty: Array<[SourceSession, number | null, SessRow | undefined]>; gone: SessRow[] } {
    const seqs = d.source.sequences()
    const known = new Map(d.index.allSql<SessRow>(`SELECT gen, id, seq, synced, title, project_id, directory FROM sess`).map((r) => [sessionKey(r.gen, r.id), r]))
    const dirty: Array<[SourceSession, number | null, SessRow | undefined]> = []
    for (const s of d.source.sessions()) {
      const key = sessionKey(s.gen, s.id)
      const k = known.get(key)
      known.delete(key)
      const seq = seqs?.get(s.id) ?? null
      const changed = !k || k.title !== s.title || k.project_id !== s.project_id || k.directory !== s.directory ||
        (seqs ? seq !== k.seq : s.time_updated >= k.synced)
      if (changed) dirty.push([s, seq, k])
    }
    return { dirty, gone: [...known.values()] }
  }

  return {
    /** Sync dirty sessions for about `budgetMs`; true when some are left for the next call. */
    run(budgetMs: number): boolean {
      const found = d.inTransaction(findDirty)
      if (!found) return true
      if (found.gone.length) d.inTransaction(() => { for (const g of found.gone) d.writer.removeSession(g.gen, g.id) })
      const t0 = performance.now()
      for (const [s, seq, known] of found.dirty) {
        if (performance.now() - t0 > budgetMs) return true
        d.inTransaction(() => resync(s, seq, known))
      }
      return false
    },
    /** Check `limit` documents against OpenCode; re-read edited ones, drop deleted ones. True after a full pass. */
    sweep(limit: number): boolean {
      return d.inTransaction(() => {
        const docs = d.index.allSql<DocRow>(
          `SELECT id, gen, session_id, message_id, part_key, src_updated FROM doc WHERE id > ? AND part_key <> ? ORDER BY id LIMIT ?`,
          [sweepAfter, TITLE_KEY, limit])
        const v1 = docs.filter((doc) => doc.gen === 'v1')
        const v2 = docs.filter((doc) => doc.gen === 'v2')
        const parts = d.source.existing('part', v1.map((doc) => doc.part_key))
        const messages = d.source.existing('session_message', v2.map((doc) => doc.message_id))
        const stale = new Set<string>()
        for (const doc of v1) {
          const t = parts.get(doc.part_key)
          if (t === undefined) d.writer.removeIds([doc.id])
          else if (t !== doc.src_updated) stale.add(`v1\0${doc.session_id}\0${doc.message_id}`)
        }
        for (const doc of v2) {
          const t = messages.get(doc.message_id)
          if (t === undefined) d.writer.removeIds([doc.id])
          else if (t !== doc.src_updated) stale.add(`v2\0${doc.session_id}\0${doc.message_id}`)
        }
        for (const key of stale) {
          const [gen, , messageID] = key.split('\0') as [StorageGeneration, string, string]
          if (gen === 'v1') d.indexV1Rows(d.source.v1MessageRows(messageID), true)
          else {
            const row = d.source.v2Message(messageID)
            if (row) d.indexV2Row(row, true)
          }
        }
        const complete = docs.length < limit
        sweepAfter = complete ? 0 : docs.at(-1)!.id
        return complete
      }) ?? false
    },
  }
}

import type { SqliteDb } from '../lib/sqlite.js'
import { TITLE_KEY, type SourceSession } from '../store/index-source.js'
import type { IndexSources } from '../store/index-sources.js'
import type { BuildCursor } from './build-batch.js'
import { sessionKey, titleDoc } from './index-docs.js'
import type { RowIndexer } from './index-rows.js'
import type { IndexWriter } from './index-writer.js'
import { docsAfter, knownSessions, newestSourceUpdate, SYNC_SLACK_MS, type SessRow, type SweepDoc } from './upkeep.store.js'

/** When the newest rows were deleted, the tail re-reads this many rowids before the last row. */
const REREAD_ROWS = 1024

export interface CatchUpDeps {
  sourceDb: SqliteDb
  sources: IndexSources
  writer: IndexWriter
  rows: RowIndexer
  index: SqliteDb
  now: () => number
  recordSession(s: SourceSession, seq: number | null, synced: number): void
  inTransaction<T>(fn: () => T): T | undefined
}

type Dirty = [SourceSession, number | null, SessRow | undefined]

/**
 * Incremental upkeep once the build is done. The change feed is OpenCode's own `event_sequence`:
 * every durable change of a session (1.x and 2.x) bumps its seq, so a changed seq marks the
 * session dirty and only its rows updated since the last sync are read again. Without an event
 * log, a newer session `time_updated` does the same. Deleted rows are reconciled per dirty
 * session; rows others delete or edit without an event are found by the slow sweep.
 */
export function createCatchUp(d: CatchUpDeps) {
  let sweepAfter = 0

  /** Bring one session up to date; `since` 0 means every row (a new session or a moved one). */
  function resync(s: SourceSession, seq: number | null, known: SessRow | undefined) {
    const started = d.now()
    const moved = !!known && (known.project_id !== s.project_id || known.directory !== s.directory)
    // Re-read rows updated since the last sync by the wall clock, or since the newest row indexed,
    // whichever is earlier: a writer whose timestamps lag the clock is still caught.
    const newest = newestSourceUpdate(d.index, s.gen, s.id)
    const since = known && !moved ? Math.min(known.synced, (newest ?? 0) - SYNC_SLACK_MS) : 0
    d.recordSession(s, seq, started - SYNC_SLACK_MS)
    const source = d.sources.of(s.gen)
    if (source) {
      d.rows.indexRows(source, source.sessionRows(d.sourceDb, s.id, since), moved)
      const live = source.liveKeys(d.sourceDb, s.id)
      const gone = d.writer.sessionDocs(s.gen, s.id).filter((doc) => doc.part_key !== TITLE_KEY && !live.has(source.sourceKey(doc)))
      d.writer.removeIds(gone.map((doc) => doc.id))
    }
    const title = titleDoc(s)
    if (title) d.writer.upsert(title, { force: !known || known.title !== s.title || moved })
    else d.writer.remove({ gen: s.gen, sessionID: s.id, messageID: '', partKey: TITLE_KEY })
  }

  /** Sessions whose rows may have changed since their last sync, and sessions that are gone. */
  function findDirty(): { dirty: Dirty[]; gone: SessRow[] } {
    const seqs = d.sources.sequences(d.sourceDb)
    const known = new Map(knownSessions(d.index).map((r) => [sessionKey(r.gen, r.id), r]))
    const dirty: Dirty[] = []
    for (const s of d.sources.sessions(d.sourceDb)) {
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
        const docs = docsAfter(d.index, sweepAfter, limit)
        reconcile(d, docs)
        const complete = docs.length < limit
        sweepAfter = complete ? 0 : docs.at(-1)!.id
        return complete
      }) ?? false
    },
  }
}

/** Drop documents whose rows are gone; re-read the messages of rows edited since they were indexed. */
function reconcile(d: CatchUpDeps, docs: readonly SweepDoc[]) {
  const byGen = new Map<string, SweepDoc[]>()
  for (const doc of docs) {
    const list = byGen.get(doc.gen)
    if (list) list.push(doc)
    else byGen.set(doc.gen, [doc])
  }
  for (const [gen, mine] of byGen) {
    // A generation this file no longer has: its sessions are gone, and `run` drops them.
    const source = d.sources.of(gen)
    if (!source) continue
    const present = source.existing(d.sourceDb, mine.map((doc) => source.sourceKey(doc)))
    const stale = new Set<string>()
    for (const doc of mine) {
      const t = present.get(source.sourceKey(doc))
      if (t === undefined) d.writer.removeIds([doc.id])
      else if (t !== doc.src_updated) stale.add(doc.message_id)
    }
    for (const messageID of stale) d.rows.indexRows(source, source.messageRows(d.sourceDb, messageID), true)
  }
}

/**
 * Rows appended since the build (rowid past its cursor), one read per source, inside the
 * caller's transaction; moves `meta` past them. True when a source has more.
 */
export function readAppended(d: Pick<CatchUpDeps, 'sourceDb' | 'sources' | 'rows'>, meta: BuildCursor & { done: number; total: number }): { more: boolean; bytes: number } {
  let more = false
  let bytes = 0
  for (const source of d.sources.all) {
    const key = source.cursorKeys.watermark
    // When the newest rows were deleted (a prune, a VACUUM), SQLite hands their rowids out
    // again, below the watermark. Which rows past the shrink are new cannot be told, so the
    // tail re-reads a window before the last row (unchanged rows cost a lookup); sessions that
    // changed are found through the event sequence (`createCatchUp`) in any case.
    const last = source.lastRowid(d.sourceDb)
    if (last < meta[key]) meta[key] = Math.max(0, last - REREAD_ROWS)
    const rows = source.chunk(d.sourceDb, meta[key], source.rowsPerRead)
    bytes += d.rows.indexRows(source, rows).bytes
    meta[key] = rows.at(-1)?.rid ?? meta[key]
    meta.done += rows.length
    if (rows.length === source.rowsPerRead) more = true
  }
  meta.total = meta.done
  return { more, bytes }
}

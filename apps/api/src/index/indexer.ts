import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { StorageLayout } from '../store/probe.js'
import { sessionKey, titleDoc, type SessionScope } from './index-docs.js'
import { readMeta, setBuildMerging, truncateLog, writeMeta } from './index-db.js'
import { createIndexWriter, TITLE_KEY } from './index-writer.js'
import { createIndexSource, type SourceSession, type V1PartRow, type V2MessageRow } from './opencode-source.js'
import { createCatchUp } from './catch-up.js'
import { CHUNK_ROWS, createDocReader, readBatch, stampsKey, type BatchLimits, type BuildBatch, type BuildCursor } from './build-batch.js'

export type IndexState = 'building' | 'ready' | 'unavailable' | 'error'

export interface IndexStatus {
  state: IndexState
  /** OpenCode rows (1.x parts, 2.x messages) read by the build so far, and how many there are. */
  indexedParts: number
  totalParts: number
  /** Text indexed by this run of the build, and its rate. */
  bytes: number
  mbPerSecond: number
  message: string | null
}

/** The resumable build's position, stored in the sidecar after every batch. */
interface BuildMeta extends BuildCursor {
  done: number
  total: number
  startedAt: number
}

/** Rows updated this long before a sync are read again at the next one (commit vs. Date.now() skew). */
export const SYNC_SLACK_MS = 5000
const REREAD_ROWS = 1024
const cursorOf = (m: BuildCursor): BuildCursor => ({ phase: m.phase, v1After: m.v1After, v2After: m.v2After })
const sameCursor = (a: BuildCursor, b: BuildCursor) => a.phase === b.phase && a.v1After === b.v1After && a.v2After === b.v2After
/**
 * A build batch, one write transaction and one FTS5 segment: a few thousand rows, 16 MB of text at
 * most (the writer holds the sidecar's lock for ~0.1-0.5 s). Batches of 1,024 rows made the
 * benchmark's build write four times as many segments, and ~1.3 s slower.
 */
export const BATCH_LIMITS: BatchLimits = { rows: 4096, bytes: 16_000_000 }

export interface IndexerOptions {
  sourceDb: SqliteDb
  layout: StorageLayout
  index: SqliteDb
  now: () => number
}

/**
 * Builds and maintains the sidecar from OpenCode's file. Every step is synchronous and bounded:
 * the worker thread calls them in a loop, tests call them directly. Each step holds the sidecar's
 * write lock while it reads OpenCode, so a prune's re-index on the main thread is ordered with it
 * and a stale read can never resurrect pruned text. The one exception, build batches read by the
 * reader thread, are checked when written (`applyBatch`).
 */
export function createIndexer({ sourceDb, layout, index, now }: IndexerOptions) {
  const source = createIndexSource(sourceDb, layout)
  const writer = createIndexWriter(index)
  const scopes = new Map<string, SessionScope>()
  const docReader = createDocReader(source, scopes)
  const run = { startedAt: performance.now(), bytes: 0 }

  /** The build's last transaction committed: its log is checkpointed. */
  let built = false
  /** `bulk`: the initial build, whose code tokens get their substring index once, when it completes. */
  const inTransaction = <T>(fn: () => T, bulk = false): T | undefined => {
    const result = index.write(() => {
      writer.begin()
      const value = sourceDb.read(fn)
      writer.flush(!bulk)
      return value
    }, 2000)
    // The build's last transaction rewrites the whole full-text index (optimize): its ~100 MB of
    // log would stay on disk beside the sidecar until the next write.
    if (built) truncateLog(index)
    built = false
    return result.ok ? result.value : undefined
  }
  function recordSession(s: SourceSession, seq: number | null, synced: number) {
    scopes.set(sessionKey(s.gen, s.id), { projectID: s.project_id, directory: s.directory })
    index.runSql(
      `INSERT OR REPLACE INTO sess(gen, id, seq, synced, title, project_id, directory, time_created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [s.gen, s.id, seq, synced, s.title, s.project_id, s.directory, s.time_created])
  }

  /** Index the documents of 1.x part rows; returns text bytes written. */
  function indexV1Rows(rows: readonly V1PartRow[], force = false): number {
    const docs = docReader.v1(rows)
    let bytes = 0
    for (const [i, row] of rows.entries()) {
      const doc = docs[i]
      if (doc) bytes += writer.upsert(doc, { force })
      else writer.remove({ gen: 'v1', sessionID: row.session_id, messageID: row.message_id, partKey: row.id })
    }
    return bytes
  }

  /** Replace the documents of one 2.x row, dropping items it no longer has. */
  function indexV2Row(row: V2MessageRow, force = false): { bytes: number; removed: number } {
    const docs = docReader.v2(row)
    const existing = writer.messageDocs('v2', row.session_id, row.id)
    let bytes = 0
    for (const doc of docs) {
      existing.delete(doc.partKey)
      bytes += writer.upsert(doc, { force })
    }
    writer.removeIds([...existing.values()])
    return { bytes, removed: existing.size }
  }

  function startBuild(): BuildMeta {
    const started = now()
    const seqs = source.sequences()
    for (const s of source.sessions()) {
      recordSession(s, seqs?.get(s.id) ?? null, started - SYNC_SLACK_MS)
      const title = titleDoc(s)
      if (title) writer.upsert(title)
    }
    const totals = source.totals()
    const meta: BuildMeta = {
      phase: source.generations.v1 ? 'v1' : source.generations.v2 ? 'v2' : 'done',
      v1After: 0, v2After: 0, done: 0, total: totals.v1 + totals.v2, startedAt: started,
    }
    if (meta.phase !== 'done') setBuildMerging(index, true)
    writeMeta(index, 'build', meta)
    return meta
  }

  const currentStamps = ({ phase, v1After, v2After }: BuildCursor, to: BuildCursor) =>
    phase === 'done' ? '' : stampsKey(phase === 'v1' ? source.stamps('part', v1After, to.v1After) : source.stamps('session_message', v2After, to.v2After))
  /** Moves whenever another connection (OpenCode, Loupe's prunes) commits to OpenCode's file. */
  const sourceVersion = () => sourceDb.raw.pragma('data_version', { simple: true }) as number
  // Comparing stamps reads the leaf pages of every row in the batch again (about 1 s of the
  // benchmark's build), so it is left for batches that another commit may have overtaken.
  const isCurrent = (batch: BuildBatch) =>
    (batch.version !== undefined && batch.version === sourceVersion()) || batch.stamps === currentStamps(batch.from, batch.to)

  /** Write a batch and move the build's cursor past it, inside the caller's write transaction. */
  function writeBatch(meta: BuildMeta, batch: BuildBatch) {
    writer.reserveSlots(batch.docs.map((d) => d.time))
    const vocabulary = batch.terms === null
    for (const doc of batch.docs) run.bytes += writer.upsert(doc, { fresh: true, vocabulary })
    if (batch.terms) writer.addTerms(batch.terms)
    Object.assign(meta, batch.to)
    meta.done += batch.rows
    if (meta.phase === 'done') {
      meta.total = meta.done
      writer.flush(false)
      writer.rebuildTrigrams()
      setBuildMerging(index, false)
      // One segment: every query walks each segment there is (a phrase ranked in 4.1 ms before, 1.9 after).
      index.runSql(`INSERT INTO fts(fts) VALUES ('optimize')`)
      built = true
    } else meta.total = Math.max(meta.total, meta.done)
    writeMeta(index, 'build', meta)
  }

  const catchUp = createCatchUp({ source, writer, index, now, scopes, recordSession, indexV1Rows, indexV2Row, inTransaction })

  return {
    source,
    sourceVersion,
    /** Load what the sidecar already knows; begin a build if there is none. */
    start(): BuildMeta | undefined {
      for (const r of index.allSql<{ gen: StorageGeneration; id: string; project_id: string; directory: string }>(`SELECT gen, id, project_id, directory FROM sess`)) {
        scopes.set(sessionKey(r.gen, r.id), { projectID: r.project_id, directory: r.directory })
      }
      return readMeta<BuildMeta>(index, 'build') ?? inTransaction(startBuild)
    },
    /** Index the next rows for about `budgetMs`, reading them here. False when the build is complete. */
    buildStep(budgetMs = 400): boolean {
      const result = inTransaction(() => {
        const meta = readMeta<BuildMeta>(index, 'build') ?? startBuild()
        const t0 = performance.now()
        for (let first = true; meta.phase !== 'done' && (first || performance.now() - t0 < budgetMs); first = false) {
          writeBatch(meta, readBatch(source, docReader, cursorOf(meta), BATCH_LIMITS))
        }
        return meta.phase !== 'done'
      }, true)
      return result ?? true
    },
    /** True until the initial build has completed (also before it began). */
    buildPending: () => readMeta<BuildMeta>(index, 'build')?.phase !== 'done',
    /** Where the build stands, or null once it is complete. */
    buildCursor(): BuildCursor | null {
      const meta = readMeta<BuildMeta>(index, 'build') ?? inTransaction(startBuild)
      return meta && meta.phase !== 'done' ? cursorOf(meta) : null
    },
    /**
     * Write a batch read elsewhere (the build's reader thread). 'moved': the build is no longer
     * where the batch starts (another writer moved it: the pipeline gives up and the build goes on
     * with `buildStep`); 'busy': the sidecar was locked, the same batch may be tried again.
     */
    applyBatch(batch: BuildBatch): 'applied' | 'moved' | 'busy' {
      const result = inTransaction(() => {
        const meta = readMeta<BuildMeta>(index, 'build')
        if (!meta || !sameCursor(meta, batch.from)) return 'moved' as const
        // Read outside the lock, the batch may hold text a prune has removed since. A prune always
        // changes the rows' stamps (1.x prunes delete parts, 2.x prunes rewrite rows with a new
        // time and size), whether or not its re-index on the main thread got the lock, and so
        // does any OpenCode edit: then the same rows are read again here, under the lock.
        const current = isCurrent(batch) ? batch : readBatch(source, docReader, batch.from, BATCH_LIMITS, { upTo: batch.to })
        writeBatch(meta, current)
        return 'applied' as const
      }, true)
      return result ?? 'busy'
    },
    /**
     * Bring the index up to date after the build: rows appended since (rowid past the build's
     * cursor), then sessions whose event sequence moved. False when nothing is left to do.
     */
    catchUp(budgetMs = 200): boolean {
      const moreRows = inTransaction(() => {
        const meta = readMeta<BuildMeta>(index, 'build')
        if (meta?.phase !== 'done') return false
        // When the newest rows were deleted (a prune, a VACUUM), SQLite hands their rowids out
        // again, below the watermark. Which rows past the shrink are new cannot be told, so the
        // tail re-reads a window before the last row (unchanged rows cost a lookup); sessions that
        // changed are found through the event sequence below in any case.
        const last = source.lastRowids()
        if (last.v1 < meta.v1After) meta.v1After = Math.max(0, last.v1 - REREAD_ROWS)
        if (last.v2 < meta.v2After) meta.v2After = Math.max(0, last.v2 - REREAD_ROWS)
        const v1 = source.generations.v1 ? source.v1Chunk(meta.v1After, CHUNK_ROWS) : []
        const v2 = source.generations.v2 ? source.v2Chunk(meta.v2After, CHUNK_ROWS / 4) : []
        run.bytes += indexV1Rows(v1)
        for (const row of v2) run.bytes += indexV2Row(row).bytes
        meta.v1After = v1.at(-1)?.rid ?? meta.v1After
        meta.v2After = v2.at(-1)?.rid ?? meta.v2After
        meta.done += v1.length + v2.length
        meta.total = meta.done
        writeMeta(index, 'build', meta)
        return v1.length === CHUNK_ROWS || v2.length === CHUNK_ROWS / 4
      }) ?? true
      return catchUp.run(budgetMs) || moreRows
    },
    /** One slice of the reconcile sweep (rows deleted or edited by others). */
    sweepStep: (limit = 500) => catchUp.sweep(limit),
    /**
     * Re-read one message and replace its documents (the pruning listener): parts removed from
     * the message lose their documents in the same request. Returns documents removed, or null
     * when the sidecar stayed locked (the caller tries again later).
     */
    reindexMessage(gen: StorageGeneration, sessionID: string, messageID: string): number | null {
      return inTransaction(() => {
        const before = writer.messageDocs(gen, sessionID, messageID)
        if (gen === 'v1') {
          const rows = source.v1MessageRows(messageID).filter((r) => r.session_id === sessionID)
          for (const row of rows) before.delete(row.id)
          indexV1Rows(rows, true)
        } else {
          const row = source.v2Message(messageID)
          if (row && row.session_id === sessionID) return indexV2Row(row, true).removed
        }
        writer.removeIds([...before.values()])
        return before.size
      }) ?? null
    },
    status(): IndexStatus {
      const meta = readMeta<BuildMeta>(index, 'build')
      const seconds = (performance.now() - run.startedAt) / 1000
      return {
        state: meta?.phase === 'done' ? 'ready' : 'building',
        indexedParts: meta?.done ?? 0,
        totalParts: meta?.total ?? 0,
        bytes: run.bytes,
        mbPerSecond: seconds > 0 ? run.bytes / 1e6 / seconds : 0,
        message: null,
      }
    },
  }
}

export type Indexer = ReturnType<typeof createIndexer>
export { TITLE_KEY }

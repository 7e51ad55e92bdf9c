import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { SessionScope, SourceSession } from '../store/index-source.js'
import type { IndexSources } from '../store/index-sources.js'
import { createDocReader, type BatchLimits } from './build-batch.js'
import { createBuild, type BuildMeta } from './build-steps.js'
import { createCatchUp, readAppended } from './catch-up.js'
import { sessionKey } from './index-docs.js'
import { truncateLog, writeMeta } from './index-db.js'
import { createRowIndexer } from './index-rows.js'
import { createIndexWriter } from './index-writer.js'
import { knownSessions, recordSessionRow } from './upkeep.store.js'

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

/**
 * A build batch, one write transaction and one FTS5 segment: a couple of thousand rows, 16 MB of
 * text at most, so the writer holds the sidecar's lock only briefly. Each thread of the build holds
 * a few batches at once (read ahead, being written), so the row count sets much of the build's
 * memory; halving it from 4,096 kept the rate, while batches of a few hundred rows write so many
 * segments that the build slows down (bench/README.md).
 */
export const BATCH_LIMITS: BatchLimits = { rows: 2048, bytes: 16_000_000 }

export interface IndexerOptions {
  sourceDb: SqliteDb
  /** The index source roles of the database `sourceDb` opened. */
  sources: IndexSources
  index: SqliteDb
  now: () => number
}

/**
 * One write transaction of the sidecar around a read transaction of OpenCode's file. `bulk`: the
 * initial build, whose code tokens get their substring index once, when it completes.
 */
function createTransactions(index: SqliteDb, sourceDb: SqliteDb, writer: ReturnType<typeof createIndexWriter>) {
  let built = false
  return {
    /** The build's last transaction is about to commit: its log is checkpointed after. */
    markBuilt: () => void (built = true),
    run<T>(fn: () => T, bulk = false): T | undefined {
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
    },
  }
}

/**
 * Builds and maintains the sidecar from OpenCode's file. Every step is synchronous and bounded:
 * the worker thread calls them in a loop, tests call them directly. Each step holds the sidecar's
 * write lock while it reads OpenCode, so a prune's re-index on the main thread is ordered with it
 * and a stale read can never resurrect pruned text. The one exception, build batches read by the
 * reader thread, are checked when written (`applyBatch`).
 */
export function createIndexer({ sourceDb, sources, index, now }: IndexerOptions) {
  const writer = createIndexWriter(index)
  const scopes = new Map<string, SessionScope>()
  const reader = createDocReader(sourceDb, sources, scopes)
  const run = { startedAt: performance.now(), bytes: 0 }
  const tx = createTransactions(index, sourceDb, writer)
  const inTransaction = <T>(fn: () => T, bulk = false) => tx.run(fn, bulk)
  const recordSession = (s: SourceSession, seq: number | null, synced: number) => {
    scopes.set(sessionKey(s.gen, s.id), { projectID: s.project_id, directory: s.directory })
    recordSessionRow(index, s, seq, synced)
  }
  const rows = createRowIndexer(reader, writer)
  const build = createBuild({ reader, writer, index, now, limits: BATCH_LIMITS, recordSession, run, onBuilt: tx.markBuilt, inTransaction })
  const catchUp = createCatchUp({ sourceDb, sources, writer, rows, index, now, recordSession, inTransaction })

  return {
    sources,
    sourceVersion: build.sourceVersion,
    /** The last rowid of every source, summed: how large a build is. */
    lastRows: () => sources.all.reduce((n, s) => n + s.lastRowid(sourceDb), 0),
    /** Load what the sidecar already knows; begin a build if there is none. */
    start(): BuildMeta | undefined {
      for (const r of knownSessions(index)) scopes.set(sessionKey(r.gen, r.id), { projectID: r.project_id, directory: r.directory })
      return build.meta() ?? build.begin()
    },
    buildStep: (budgetMs = 400) => build.step(budgetMs),
    buildPending: build.pending,
    buildCursor: build.cursor,
    applyBatch: build.apply,
    /**
     * Bring the index up to date after the build: rows appended since (rowid past the build's
     * cursor), then sessions whose event sequence moved. False when nothing is left to do.
     */
    catchUp(budgetMs = 200): boolean {
      const moreRows = inTransaction(() => {
        const meta = build.meta()
        if (meta?.phase !== 'done') return false
        const tail = readAppended({ sourceDb, sources, rows }, meta)
        run.bytes += tail.bytes
        writeMeta(index, 'build', meta)
        return tail.more
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
      return inTransaction(() => rows.reindexMessage(sources.of(gen), gen, sessionID, messageID)) ?? null
    },
    status(): IndexStatus {
      const meta = build.meta()
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

import type { SqliteDb } from '../lib/sqlite.js'
import type { SourceSession } from '../store/index-source.js'
import { firstPhase, readBatch, stampsKey, type BatchLimits, type BuildBatch, type BuildCursor, type DocReader } from './build-batch.js'
import { readMeta, setBuildMerging, writeMeta } from './index-db.js'
import { titleDoc } from './index-docs.js'
import type { IndexWriter } from './index-writer.js'
import { optimizeFts, SYNC_SLACK_MS } from './upkeep.store.js'

/** The resumable build's position, stored in the sidecar after every batch. */
export interface BuildMeta extends BuildCursor {
  done: number
  total: number
  startedAt: number
}

const cursorOf = (m: BuildCursor): BuildCursor => ({ phase: m.phase, v1After: m.v1After, v2After: m.v2After })
const sameCursor = (a: BuildCursor, b: BuildCursor) => a.phase === b.phase && a.v1After === b.v1After && a.v2After === b.v2After

interface BuildStepsDeps {
  reader: DocReader
  writer: IndexWriter
  index: SqliteDb
  now: () => number
  limits: BatchLimits
  recordSession(s: SourceSession, seq: number | null, synced: number): void
  /** Text bytes this run has indexed. */
  run: { bytes: number }
  /** The build's last transaction committed (its log is checkpointed after the commit). */
  onBuilt(): void
}

/** The initial build's steps, each inside the caller's write transaction of the sidecar. */
function createBuildSteps(d: BuildStepsDeps) {
  const { reader, writer, index } = d
  const db = reader.db

  /** Record every session and its title, and the cursor at the first source's first row. */
  function startBuild(): BuildMeta {
    const started = d.now()
    const seqs = reader.sources.sequences(db)
    for (const s of reader.sources.sessions(db)) {
      d.recordSession(s, seqs?.get(s.id) ?? null, started - SYNC_SLACK_MS)
      const title = titleDoc(s)
      if (title) writer.upsert(title)
    }
    const total = reader.sources.all.reduce((n, s) => n + s.count(db).rows, 0)
    const meta: BuildMeta = { phase: firstPhase(reader.sources), v1After: 0, v2After: 0, done: 0, total, startedAt: started }
    if (meta.phase !== 'done') setBuildMerging(index, true)
    writeMeta(index, 'build', meta)
    return meta
  }

  const currentStamps = (from: BuildCursor, to: BuildCursor) => {
    const source = reader.sources.of(from.phase)
    if (!source) return ''
    const key = source.cursorKeys.watermark
    return stampsKey(source.stamps(db, from[key], to[key]))
  }
  /** Moves whenever another connection (OpenCode, Loupe's prunes) commits to OpenCode's file. */
  const sourceVersion = () => db.raw.pragma('data_version', { simple: true }) as number
  // Comparing stamps reads the leaf pages of every row in the batch again (a noticeable share of a
  // build), so it is left for batches that another commit may have overtaken.
  const isCurrent = (batch: BuildBatch) =>
    (batch.version !== undefined && batch.version === sourceVersion()) || batch.stamps === currentStamps(batch.from, batch.to)

  /** The last batch is written: one segment, trigrams in one pass, FTS5 merging as usual. */
  function finishBuild(meta: BuildMeta) {
    meta.total = meta.done
    writer.flush(false)
    writer.rebuildTrigrams()
    setBuildMerging(index, false)
    optimizeFts(index)
    d.onBuilt()
  }

  /** Write a batch and move the build's cursor past it. */
  function writeBatch(meta: BuildMeta, batch: BuildBatch) {
    writer.reserveSlots(batch.docs.map((doc) => doc.time))
    const vocabulary = batch.terms === null
    for (const doc of batch.docs) d.run.bytes += writer.upsert(doc, { fresh: true, vocabulary })
    if (batch.terms) writer.addTerms(batch.terms)
    Object.assign(meta, batch.to)
    meta.done += batch.rows
    if (meta.phase === 'done') finishBuild(meta)
    else meta.total = Math.max(meta.total, meta.done)
    writeMeta(index, 'build', meta)
  }

  /** Write a batch read outside the lock, read again here when OpenCode changed its rows since. */
  const writeChecked = (meta: BuildMeta, batch: BuildBatch) =>
    writeBatch(meta, isCurrent(batch) ? batch : readBatch(reader, batch.from, d.limits, { upTo: batch.to }))

  return { startBuild, writeBatch, writeChecked, sourceVersion }
}

export interface BuildDeps extends BuildStepsDeps {
  /** One write transaction of the sidecar around a read of OpenCode's; undefined when the sidecar stayed locked. */
  inTransaction<T>(fn: () => T, bulk?: boolean): T | undefined
}

/** The resumable initial build, each call one or more sidecar transactions. */
export function createBuild(d: BuildDeps) {
  const steps = createBuildSteps(d)
  const readBuild = () => readMeta<BuildMeta>(d.index, 'build')
  return {
    sourceVersion: steps.sourceVersion,
    /** Where the build stands; undefined before it began. */
    meta: readBuild,
    /** Record the sessions and begin the build. */
    begin: () => d.inTransaction(steps.startBuild),
    /** Index the next rows for about `budgetMs`, reading them here. False when the build is complete. */
    step(budgetMs: number): boolean {
      const result = d.inTransaction(() => {
        const meta = readBuild() ?? steps.startBuild()
        const t0 = performance.now()
        for (let first = true; meta.phase !== 'done' && (first || performance.now() - t0 < budgetMs); first = false) {
          steps.writeBatch(meta, readBatch(d.reader, cursorOf(meta), d.limits))
        }
        return meta.phase !== 'done'
      }, true)
      return result ?? true
    },
    /** True until the initial build has completed (also before it began). */
    pending: () => readBuild()?.phase !== 'done',
    /** Where the build stands, or null once it is complete. */
    cursor(): BuildCursor | null {
      const meta = readBuild() ?? d.inTransaction(steps.startBuild)
      return meta && meta.phase !== 'done' ? cursorOf(meta) : null
    },
    /**
     * Write a batch read elsewhere (the build's reader thread). 'moved': the build is no longer
     * where the batch starts (another writer moved it: the pipeline gives up and the build goes on
     * with `step`); 'busy': the sidecar was locked, the same batch may be tried again.
     */
    apply(batch: BuildBatch): 'applied' | 'moved' | 'busy' {
      const result = d.inTransaction(() => {
        const meta = readBuild()
        if (!meta || !sameCursor(meta, batch.from)) return 'moved' as const
        // Read outside the lock, the batch may hold text a prune has removed since. A prune always
        // changes the rows' stamps (1.x prunes delete parts, 2.x prunes rewrite rows with a new
        // time and size), whether or not its re-index on the main thread got the lock, and so
        // does any OpenCode edit: then the same rows are read again here, under the lock.
        steps.writeChecked(meta, batch)
        return 'applied' as const
      }, true)
      return result ?? 'busy'
    },
  }
}

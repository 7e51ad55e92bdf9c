import type { SqliteDb } from '../lib/sqlite.js'
import type { SourceSession } from '../store/index-source.js'
import { firstPhase, readBatch, stampsKey, type BatchLimits, type BuildBatch, type BuildCursor, type DocReader } from './build-batch.js'
import { setBuildMerging, writeMeta } from './index-db.js'
import { titleDoc } from './index-docs.js'
import type { IndexWriter } from './index-writer.js'
import { optimizeFts, SYNC_SLACK_MS } from './upkeep.store.js'

/** The resumable build's position, stored in the sidecar after every batch. */
export interface BuildMeta extends BuildCursor {
  done: number
  total: number
  startedAt: number
}

export const cursorOf = (m: BuildCursor): BuildCursor => ({ phase: m.phase, v1After: m.v1After, v2After: m.v2After })
export const sameCursor = (a: BuildCursor, b: BuildCursor) => a.phase === b.phase && a.v1After === b.v1After && a.v2After === b.v2After

export interface BuildStepsDeps {
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
export function createBuildSteps(d: BuildStepsDeps) {
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
  // Comparing stamps reads the leaf pages of every row in the batch again (about 1 s of the
  // benchmark's build), so it is left for batches that another commit may have overtaken.
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

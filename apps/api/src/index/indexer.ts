import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { StorageLayout } from '../store/probe.js'
import { NO_SCOPE, sessionKey, titleDoc, v1Doc, v2Docs, type SessionScope } from './index-docs.js'
import { readMeta, writeMeta } from './index-db.js'
import { createIndexWriter, TITLE_KEY } from './index-writer.js'
import { createIndexSource, type SourceSession, type V1PartRow, type V2MessageRow } from './opencode-source.js'
import { createCatchUp } from './catch-up.js'

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

/** The resumable build's position, stored in the sidecar after every chunk. */
interface BuildMeta {
  phase: 'v1' | 'v2' | 'done'
  v1After: number
  v2After: number
  done: number
  total: number
  startedAt: number
}

/** Rows updated this long before a sync are read again at the next one (commit vs. Date.now() skew). */
export const SYNC_SLACK_MS = 5000
const CHUNK_ROWS = 256
const REREAD_ROWS = 1024

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
 * and a stale read can never resurrect pruned text.
 */
export function createIndexer({ sourceDb, layout, index, now }: IndexerOptions) {
  const source = createIndexSource(sourceDb, layout)
  const writer = createIndexWriter(index)
  const scopes = new Map<string, SessionScope>()
  const roles = new Map<string, string>()
  const run = { startedAt: performance.now(), bytes: 0 }

  /** `bulk`: the initial build, whose code tokens get their substring index once, when it completes. */
  const inTransaction = <T>(fn: () => T, bulk = false): T | undefined => {
    const result = index.write(() => {
      writer.begin()
      const value = sourceDb.read(fn)
      writer.flush(!bulk)
      return value
    }, 2000)
    return result.ok ? result.value : undefined
  }
  const scopeOf = (gen: StorageGeneration, id: string): SessionScope => {
    const key = sessionKey(gen, id)
    let scope = scopes.get(key)
    if (!scope) {
      const s = source.session(gen, id)
      scope = s ? { projectID: s.project_id, directory: s.directory } : NO_SCOPE
      scopes.set(key, scope)
    }
    return scope
  }
  const roleOf = (rows: readonly V1PartRow[]) => {
    const missing = rows.filter((r) => r.data !== null && !roles.has(r.message_id)).map((r) => r.message_id)
    if (missing.length) {
      if (roles.size > 100_000) roles.clear()
      for (const [id, role] of source.roles(missing)) roles.set(id, role)
    }
    return (id: string) => roles.get(id) ?? 'unknown'
  }

  function recordSession(s: SourceSession, seq: number | null, synced: number) {
    scopes.set(sessionKey(s.gen, s.id), { projectID: s.project_id, directory: s.directory })
    index.runSql(
      `INSERT OR REPLACE INTO sess(gen, id, seq, synced, title, project_id, directory, time_created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [s.gen, s.id, seq, synced, s.title, s.project_id, s.directory, s.time_created])
  }

  /** Index the documents of 1.x part rows; returns text bytes written. `fresh`: never indexed before. */
  function indexV1Rows(rows: readonly V1PartRow[], force = false, fresh = false): number {
    const role = roleOf(rows)
    let bytes = 0
    for (const row of rows) {
      const doc = v1Doc(row, role(row.message_id), scopeOf('v1', row.session_id))
      if (doc) bytes += writer.upsert(doc, force, fresh)
      else if (!fresh) writer.remove({ gen: 'v1', sessionID: row.session_id, messageID: row.message_id, partKey: row.id })
    }
    return bytes
  }

  /** Replace the documents of one 2.x row, dropping items it no longer has. */
  function indexV2Row(row: V2MessageRow, force = false, fresh = false): { bytes: number; removed: number } {
    const docs = v2Docs(row, scopeOf('v2', row.session_id))
    if (fresh) return { bytes: docs.reduce((sum, doc) => sum + writer.upsert(doc, force, true), 0), removed: 0 }
    const existing = writer.messageDocs('v2', row.session_id, row.id)
    let bytes = 0
    for (const doc of docs) {
      existing.delete(doc.partKey)
      bytes += writer.upsert(doc, force)
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
    writeMeta(index, 'build', meta)
    return meta
  }

  const catchUp = createCatchUp({ source, writer, index, now, scopes, recordSession, indexV1Rows, indexV2Row, inTransaction })

  return {
    source,
    /** Load what the sidecar already knows; begin a build if there is none. */
    start(): BuildMeta | undefined {
      for (const r of index.allSql<{ gen: StorageGeneration; id: string; project_id: string; directory: string }>(`SELECT gen, id, project_id, directory FROM sess`)) {
        scopes.set(sessionKey(r.gen, r.id), { projectID: r.project_id, directory: r.directory })
      }
      return readMeta<BuildMeta>(index, 'build') ?? inTransaction(startBuild)
    },
    /** Index the next rows for about `budgetMs`. False when the build is complete. */
    buildStep(budgetMs = 400): boolean {
      const result = inTransaction(() => {
        const meta = readMeta<BuildMeta>(index, 'build') ?? startBuild()
        if (meta.phase === 'done') return false
        const t0 = performance.now()
        for (let first = true; meta.phase !== 'done' && (first || performance.now() - t0 < budgetMs); first = false) {
          if (meta.phase === 'v1') {
            const rows = source.v1Chunk(meta.v1After, CHUNK_ROWS)
            if (rows.length === 0) meta.phase = source.generations.v2 ? 'v2' : 'done'
            run.bytes += indexV1Rows(rows, false, true)
            meta.v1After = rows.at(-1)?.rid ?? meta.v1After
            meta.done += rows.length
          } else {
            const rows = source.v2Chunk(meta.v2After, CHUNK_ROWS / 4)
            if (rows.length === 0) meta.phase = 'done'
            for (const row of rows) run.bytes += indexV2Row(row, false, true).bytes
            meta.v2After = rows.at(-1)?.rid ?? meta.v2After
            meta.done += rows.length
          }
        }
        if (meta.phase === 'done') {
          meta.total = meta.done
          writer.flush(false)
          writer.rebuildTrigrams()
        } else meta.total = Math.max(meta.total, meta.done)
        writeMeta(index, 'build', meta)
        return meta.phase !== 'done'
      }, true)
      return result ?? true
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
     * the message lose their documents in the same request. Returns documents removed.
     */
    reindexMessage(gen: StorageGeneration, sessionID: string, messageID: string): number {
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
      }) ?? 0
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

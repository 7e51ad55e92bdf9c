import type { StorageGeneration } from '@loupe/domain'
import type { Worker } from 'node:worker_threads'
import { startWorker, type WorkerRole } from '../lib/worker.js'
import { applyConnectionMemory } from '../lib/connection-memory.js'
import type { EventBus } from '../lib/event-bus.js'
import type { SqliteDb } from '../lib/sqlite.js'
import type { OpenCodeHandle } from '../store/open-opencode.js'
import { checkFts5, indexFileFor, openIndexDb } from './index-db.js'
import { createIndexer, type Indexer, type IndexStatus } from './indexer.js'
import { createLockCourtesy } from './lock-courtesy.js'
import { indexSourcesOf, type IndexSources } from '../store/index-sources.js'
import type { IndexerWorkerData, WorkerMessage } from './indexer.worker.js'
import { createSnapshotCache, type SnapshotCache } from './snapshots.js'

/** The search index as the rest of the api sees it. */
export interface SearchIndex {
  /** The sidecar (read connection for searches), or null when FTS5 is unavailable. */
  readonly db: SqliteDb | null
  /** The sidecar's file, for reclaim's compaction; null when there is none. */
  readonly file: string | null
  readonly snapshots: SnapshotCache
  status(): IndexStatus
  /** Staged reverts (`storage:sessionID` → first hidden message), re-read only after OpenCode commits. */
  revertBoundaries(): Map<string, string>
  /** Re-read one message into the index now (used after a prune, in the same request). */
  reindexMessage(storage: StorageGeneration, sessionID: string, messageID: string): number
  /** The worker thread indexing now, if any: a build's worker gives way to a follower when it is done. */
  indexerThreadId(): number | null
  /** What that worker was started for, which sets its memory: building (it retires after) or following. */
  indexerRole(): WorkerRole | null
  /** In-process mode (tests, the CLI): run build and catch-up to completion, telling `onProgress` after each slice. */
  runUntilIdle(onProgress?: (status: IndexStatus) => void): void
  close(): Promise<void>
}

export interface SearchIndexOptions {
  opencode: OpenCodeHandle
  dataDir: string
  events: EventBus
  /** 'worker': build and follow changes in a worker thread; 'manual': only when runUntilIdle() is called. */
  mode: 'worker' | 'manual'
  pollMs?: number
  sweepMs?: number
  /** Builds with at least this many rows use a reader thread beside the writer (default 20,000). */
  pipelineMinRows?: number
}

const readReverts = (opencode: OpenCodeHandle, sources: IndexSources) => opencode.db.read(() => sources.revertBoundaries(opencode.db))

/**
 * A worker that finds a build pending builds and retires after it; one that does not only follows.
 * A sidecar that cannot be read now (locked) gets the builder's larger heap: the worker finds out.
 */
function buildRole(local: Indexer): WorkerRole {
  try {
    return local.buildPending() ? 'indexBuild' : 'indexFollow'
  } catch {
    return 'indexBuild'
  }
}

const unavailable = (message: string): IndexStatus => ({ state: 'unavailable', indexedParts: 0, totalParts: 0, bytes: 0, mbPerSecond: 0, message })

/**
 * Open the sidecar next to Loupe's state (never inside OpenCode's file), start its indexer, and
 * keep it current after prunes: the `pruned` listener re-indexes the message synchronously.
 */
export function createSearchIndex(options: SearchIndexOptions): SearchIndex {
  const { opencode, events } = options
  const snapshots = createSnapshotCache()
  const sources = indexSourcesOf(opencode)
  const support = checkFts5()
  if (!support.ok || !opencode.layout.readable) {
    const status = unavailable(support.ok ? 'The OpenCode database is not readable.' : support.reason)
    return {
      db: null, file: null, snapshots, status: () => status, revertBoundaries: () => readReverts(opencode, sources),
      reindexMessage: () => 0, indexerThreadId: () => null, indexerRole: () => null, runUntilIdle: () => {}, close: async () => {},
    }
  }
  const source = { path: opencode.path, identity: opencode.identity }
  const indexPath = indexFileFor(options.dataDir, source)
  const db = openIndexDb(indexPath, source)
  applyConnectionMemory(db, 'indexSearch')
  let reverts: { version: number; map: Map<string, string> } | undefined
  // The main thread's indexer reads through the server's own OpenCode connection, which has just
  // committed the prune: it sees the pruned message.
  const local: Indexer = createIndexer({ sourceDb: opencode.db, sources, index: db, now: Date.now })
  let status: IndexStatus = local.status()
  const publish = (next: IndexStatus) => {
    status = next
    events.emit('indexProgress', { state: next.state, indexedParts: next.indexedParts, totalParts: next.totalParts, mbPerSecond: next.mbPerSecond })
  }
  // Snapshots need no reset: a page re-checks every document it returns against the index.
  // A re-index that found the sidecar locked is tried again until it lands: until then the
  // pruned text would stay findable.
  const courtesy = createLockCourtesy()
  const pending = new Map<string, { storage: StorageGeneration; sessionID: string; messageID: string }>()
  let retry: NodeJS.Timeout | null = null
  const reindex = (storage: StorageGeneration, sessionID: string, messageID: string): number => {
    const removed = courtesy.claim(() => local.reindexMessage(storage, sessionID, messageID))
    const key = `${storage}:${sessionID}:${messageID}`
    if (removed !== null) pending.delete(key)
    else {
      pending.set(key, { storage, sessionID, messageID })
      retry ??= setTimeout(retryPending, 500)
    }
    return removed ?? 0
  }
  const retryPending = () => {
    retry = null
    for (const p of [...pending.values()]) reindex(p.storage, p.sessionID, p.messageID)
  }
  const unsubscribe = events.subscribe('pruned', (p) => reindex(p.storage, p.sessionID, p.messageID))

  let worker: Worker | null = null
  let workerRole: WorkerRole | null = null
  let closing: Promise<void> | null = null
  let restarts = 0
  const spawn = () => {
    const role = buildRole(local)
    workerRole = role
    const data: IndexerWorkerData = { sourcePath: opencode.path, indexPath, source, courtesy: courtesy.shared, pollMs: options.pollMs ?? 250, sweepMs: options.sweepMs ?? 2000, pipelineMinRows: options.pipelineMinRows ?? 20_000, builds: role === 'indexBuild' }
    const w = startWorker(new URL('./indexer.worker.mjs', import.meta.url), data, role)
    let retired = false
    w.on('message', (m: WorkerMessage) => {
      if (m.type === 'status') publish(m.status)
      else if (m.type === 'error') status = { ...status, message: m.message }
      else if (m.type === 'retired') {
        retired = true
        void w.terminate()
      }
    })
    w.on('error', (error) => publish({ ...status, state: 'error', message: error.message }))
    w.on('exit', () => {
      if (closing || worker !== w) return
      worker = null
      // The build's worker gave way (indexer.worker.ts): its follower starts at once.
      if (retired) worker = spawn()
      // A crashed indexer comes back (its build resumes from the sidecar's watermark); searches scan meanwhile.
      else if (restarts++ < 3) setTimeout(() => !closing && (worker = spawn()), 2000 * restarts).unref()
    })
    w.unref()
    return w
  }
  if (options.mode === 'worker') worker = spawn()
  else local.start()

  return {
    indexerThreadId: () => worker?.threadId ?? null,
    indexerRole: () => (worker ? workerRole : null),
    db,
    file: indexPath,
    snapshots,
    status: () => status,
    revertBoundaries() {
      // data_version moves when another connection (OpenCode) commits; Loupe's own writes never stage a revert.
      const version = opencode.db.raw.pragma('data_version', { simple: true }) as number
      if (reverts?.version !== version) reverts = { version, map: readReverts(opencode, sources) }
      return reverts.map
    },
    reindexMessage: reindex,
    runUntilIdle(onProgress) {
      local.start()
      while (local.buildStep(1000)) onProgress?.(local.status())
      while (local.catchUp(1000)) onProgress?.(local.status())
      while (!local.sweepStep(2000));
      publish(local.status())
    },
    close() {
      unsubscribe()
      if (retry) clearTimeout(retry)
      closing ??= (async () => {
        if (worker) {
          const w = worker
          await new Promise<void>((resolve) => {
            const done = () => resolve()
            w.once('exit', done)
            w.on('message', (m: WorkerMessage) => m.type === 'closed' && void w.terminate().then(done, done))
            w.postMessage({ type: 'close' })
            setTimeout(() => void w.terminate().then(done, done), 3000).unref()
          })
        }
        db.close()
      })()
      return closing
    },
  }
}

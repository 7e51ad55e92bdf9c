import { parentPort, workerData } from 'node:worker_threads'
import { applyConnectionMemory } from '../lib/connection-memory.js'
import { collectAfterBusyWork, createHeapCollector } from '../lib/heap-collector.js'
import { takeFullCollection } from '../lib/server-heap.js'
import { openSqlite } from '../lib/sqlite.js'
import { createIndexSources } from '../store/index-sources.js'
import { probeSchema } from '../store/probe.js'
import { createBuildPipeline } from './build-pipeline.js'
import { createIndexer, type IndexStatus } from './indexer.js'
import { createLockCourtesy } from './lock-courtesy.js'
import { openIndexDb, type IndexSource } from './index-db.js'

/** What the main thread passes to the indexing worker. */
export interface IndexerWorkerData {
  sourcePath: string
  indexPath: string
  source: IndexSource
  /** How often to look for OpenCode commits (PRAGMA data_version). */
  pollMs: number
  /** Idle time between slices of the reconcile sweep. */
  sweepMs: number
  /** A build of fewer rows (by rowid) runs on this thread alone: a reader thread costs a start-up. */
  pipelineMinRows: number
  /** The main thread's claim on the sidecar's write lock (`createLockCourtesy`). */
  courtesy: SharedArrayBuffer
  /** Started to build (with the builder's memory): it retires once no build is pending. */
  builds: boolean
}

export type WorkerMessage =
  | { type: 'status'; status: IndexStatus }
  | { type: 'error'; message: string }
  | { type: 'closed' }
  /** The build is done and this worker has closed its connections: start a follower in its place. */
  | { type: 'retired' }

/**
 * Catch-up work (ms) after which the follower collects its heap: far more than a quiet session's
 * commits take between two collections by V8 itself, less than a compaction's commits take.
 */
const FOLLOW_BUSY_MS = 500

const data = workerData as IndexerWorkerData
const port = parentPort!
const post = (message: WorkerMessage) => port.postMessage(message)

// Its own connections: reading OpenCode's file never blocks the server's event loop, and the
// sidecar's writes happen here (the main thread writes only a pruned message's re-index).
const sourceDb = openSqlite(data.sourcePath, { readonly: true, fileMustExist: true, busyTimeoutMs: 2000 })
applyConnectionMemory(sourceDb, 'indexSource')
const index = openIndexDb(data.indexPath, data.source)
const courtesy = createLockCourtesy(data.courtesy)
const indexer = createIndexer({ sourceDb, sources: createIndexSources(probeSchema(sourceDb)), index, now: () => Date.now() })
// A worker that builds the index exits once the build is done (`retire`): the build leaves a grown
// heap, a full page cache and the reader thread's allocations behind, and the worker the main
// thread starts in its place only follows OpenCode's commits, with a small cache.
// The main thread chose this thread's memory by the same question; both threads keep its answer.
const builds = data.builds
applyConnectionMemory(index, builds ? 'indexBuild' : 'indexFollow')
// The follower lives as long as the server. Catching up after many commits (a compaction's, a long
// OpenCode run's) grows its heap, and V8 gives an idle heap back only after a full collection: one
// runs once such work is done and OpenCode has been quiet for a while (`COLLECT_DELAY_MS`). The
// builder ends instead (`retire`).
const heap = createHeapCollector(builds ? null : takeFullCollection())
const caughtUp = collectAfterBusyWork(heap, FOLLOW_BUSY_MS)

let stopped = false
let timer: NodeJS.Timeout | undefined
let lastPost = 0
let lastVersion = -1
let lastSweep = 0
/** Why the build runs slower than it could (its reader thread failed), shown with the status. */
let notice: string | null = null
// One pending tick at most: the pipeline's callbacks schedule too, and two loops must never run.
const schedule = (ms: number) => {
  if (timer) clearTimeout(timer)
  if (!stopped) timer = setTimeout(tick, ms)
}
const report = (force = false) => {
  const now = performance.now()
  if (force || now - lastPost > 200) {
    lastPost = now
    post({ type: 'status', status: { ...indexer.status(), message: notice } })
  }
}

function tick() {
  timer = undefined
  try {
    if (pipeline?.running) return
    courtesy.yieldIfWanted()
    const cursor = pipeline?.usable ? indexer.buildCursor() : null
    if (cursor) return pipeline!.start(cursor)
    if (indexer.buildStep(400)) {
      report()
      return schedule(0)
    }
    // Only a finished build retires: a follower that found a build pending again would retire in a loop.
    if (builds && !indexer.buildPending()) return retire()
    const version = sourceDb.raw.pragma('data_version', { simple: true }) as number
    if (version !== lastVersion) {
      lastVersion = version
      const startedAt = performance.now()
      const more = indexer.catchUp(200)
      if (more) lastVersion = -1
      caughtUp(performance.now() - startedAt, !more)
      report(true)
      return schedule(more ? 0 : data.pollMs)
    }
    if (performance.now() - lastSweep > data.sweepMs) {
      lastSweep = performance.now()
      indexer.sweepStep(500)
    }
    schedule(data.pollMs)
  } catch (error) {
    post({ type: 'error', message: (error as Error).message })
    schedule(2000)
  }
}

/** Close everything and tell the main thread, which ends this thread and starts a follower. */
function retire() {
  stopped = true
  heap.close()
  pipeline?.stop()
  report(true)
  sourceDb.close()
  index.close()
  post({ type: 'retired' })
}

port.on('message', (message: { type: string }) => {
  if (message.type !== 'close') return
  stopped = true
  if (timer) clearTimeout(timer)
  heap.close()
  pipeline?.stop()
  sourceDb.close()
  index.close()
  post({ type: 'closed' })
})

// A large build gets its reader thread before `start` records the sessions, so the two overlap.
function createPipeline() {
  if (!indexer.buildPending() || indexer.lastRows() < data.pipelineMinRows) return null
  return createBuildPipeline({
    sourcePath: data.sourcePath, indexer, courtesy,
    onProgress: () => report(),
    onDone: () => {
      report(true)
      schedule(0)
    },
    onFallBack: (message) => {
      notice = message
      report(true)
      schedule(0)
    },
  })
}
let pipeline: ReturnType<typeof createPipeline> = null
try {
  pipeline = createPipeline()
} catch (error) {
  notice = `Indexing runs on one thread (${(error as Error).message}).`
}
indexer.start()
report(true)
schedule(0)

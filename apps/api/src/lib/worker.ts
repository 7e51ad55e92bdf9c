import { Worker } from 'node:worker_threads'

/** What a worker thread is for: each gets its young generation on purpose. */
export type WorkerRole = 'indexBuild' | 'indexFollow' | 'storageJob'

/**
 * Each worker's young generation, MB. V8 grows a thread's young generation to 48 MB when it
 * allocates fast, and the index build's two threads allocate a batch's rows, documents and tokens
 * again and again: each held tens of MB of mostly empty new space. The build's limit is the
 * smallest that cost it no CPU (bench/README.md). The follower lives as long as the server and
 * mostly waits: a catch-up after a long time offline collects more often than it would otherwise.
 */
export const WORKER_YOUNG_GENERATION_MB: Record<WorkerRole, number> = {
  indexBuild: 16,
  indexFollow: 4,
  // The storage doctor's scan and reclaim's copy: mostly SQLite's work, their heaps end with them.
  storageJob: 16,
}

/** A worker thread for one of the api's `*.worker.mjs` files, without the parent's loader flags (tsx). */
export function startWorker(url: URL, workerData: unknown, role: WorkerRole): Worker {
  return new Worker(url, { workerData, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB[role] } })
}

import { Worker } from 'node:worker_threads'

/** What a worker thread is for: each gets its young generation on purpose. */
export type WorkerRole = 'indexBuild' | 'indexFollow' | 'storageJob'

/**
 * Each worker's young generation, MB. V8 grows a thread's young generation to 48 MB when it
 * allocates fast, and the index build's two threads allocate a batch's rows, documents and tokens
 * again and again: each held tens of MB of mostly empty new space. 8 MB costs the build some CPU
 * against 16 (it collects its young generation twice as often) and keeps it above its rate target
 * while it peaks lower; the storage jobs and the follower, mostly SQLite's work or waiting, lose
 * nothing by it (bench/README.md). The server clears the launchers' semi-space flag before any
 * worker starts (server-heap.ts), so these hold however it was started.
 */
export const WORKER_YOUNG_GENERATION_MB: Record<WorkerRole, number> = {
  indexBuild: 8,
  indexFollow: 8,
  storageJob: 8,
}

/** A worker thread for one of the api's `*.worker.mjs` files, without the parent's loader flags (tsx). */
export function startWorker(url: URL, workerData: unknown, role: WorkerRole): Worker {
  return new Worker(url, { workerData, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB[role] } })
}

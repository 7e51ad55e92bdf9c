import { Worker } from 'node:worker_threads'

/** What a worker thread is for: each gets its young generation on purpose. */
export type WorkerRole = 'indexBuild' | 'indexFollow' | 'storageJob'

/**
 * Each worker's young generation, MB. V8 grows a thread's young generation to 48 MB when it
 * allocates fast, and the index build's two threads allocate a batch's rows, documents and tokens
 * again and again: each held tens of MB of mostly empty new space, and larger young generations kept
 * more of the rows' native memory alive in glibc's arenas. 8 MB is what every worker had under the
 * launchers' semi-space flag; it costs the build some CPU against 16, for a lower peak and less left
 * in the arenas (bench/README.md). The server clears that flag before any worker starts
 * (server-heap.ts), so these sizes hold however it was started.
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

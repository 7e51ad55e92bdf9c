import { describe, expect, it } from 'vitest'
import { startWorker, WORKER_YOUNG_GENERATION_MB, type WorkerRole } from './worker.js'

// A worker that answers with the limits it was given, as V8 sees them from inside the thread.
const ECHO = new URL(`data:text/javascript,${encodeURIComponent(
  `import { parentPort, resourceLimits, workerData } from 'node:worker_threads'
   parentPort.postMessage({ limits: resourceLimits, workerData })`)}`)

const limitsOf = (role: WorkerRole) =>
  new Promise<{ limits: { maxYoungGenerationSizeMb: number }; workerData: unknown }>((resolve, reject) => {
    const worker = startWorker(ECHO, { role }, role)
    worker.once('message', (m) => void worker.terminate().then(() => resolve(m)))
    worker.once('error', reject)
  })

describe('startWorker', () => {
  it('gives each role its young generation, and the worker its data', async () => {
    for (const role of Object.keys(WORKER_YOUNG_GENERATION_MB) as WorkerRole[]) {
      const { limits, workerData } = await limitsOf(role)
      expect(limits.maxYoungGenerationSizeMb).toBe(WORKER_YOUNG_GENERATION_MB[role])
      expect(workerData).toEqual({ role })
    }
  })
})

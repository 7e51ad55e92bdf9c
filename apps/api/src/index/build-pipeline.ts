import type { Worker } from 'node:worker_threads'
import { startWorker } from '../lib/worker.js'
import type { BuildCursor } from './build-batch.js'
import type { BuildReaderData, PipelineMessage, ReaderMessage } from './build-reader.worker.js'
import { BATCH_LIMITS, type Indexer } from './indexer.js'
import type { LockCourtesy } from './lock-courtesy.js'

export interface BuildPipelineOptions {
  sourcePath: string
  indexer: Indexer
  courtesy: LockCourtesy
  /** A batch was written. */
  onProgress(): void
  /** The build is complete. */
  onDone(): void
  /** The reader failed: the build goes on with `buildStep`, from the sidecar's watermark. */
  onFallBack(message: string): void
}

export interface BuildPipeline {
  /** Batches are being read and written (the caller's own build steps must wait). */
  readonly running: boolean
  /** Still usable: neither done nor failed. */
  readonly usable: boolean
  start(from: BuildCursor): void
  stop(): void
}

/** Batches the reader may read ahead of the writer: enough to keep both threads busy, little memory. */
const READ_AHEAD = 3

/**
 * The initial build as a pipeline: a reader thread reads, parses and tokenizes OpenCode's rows
 * while this thread writes the previous batch (FTS5's inserts alone take a core). The reader
 * starts loading at once, while the caller records sessions, and reads once `start` gives it the
 * cursor.
 */
export function createBuildPipeline(options: BuildPipelineOptions): BuildPipeline {
  const { indexer } = options
  const data: BuildReaderData = { sourcePath: options.sourcePath, limits: BATCH_LIMITS, credits: READ_AHEAD }
  let worker: Worker | null = startWorker(new URL('./build-reader.worker.mjs', import.meta.url), data, 'indexBuild')
  let running = false
  const stop = () => {
    running = false
    void worker?.terminate()
    worker = null
  }
  const fallBack = (w: Worker, error: Error) => {
    if (worker !== w) return
    stop()
    options.onFallBack(`Indexing fell back to one thread (its reader thread failed: ${error.message}).`)
  }
  const w = worker
  w.on('message', (message: ReaderMessage) => {
    if (worker !== w) return
    try {
      options.courtesy.yieldIfWanted()
      let outcome = indexer.applyBatch(message.batch)
      if (outcome === 'busy') outcome = indexer.applyBatch(message.batch)
      if (outcome !== 'applied') throw new Error(`a batch could not be written (${outcome})`)
      if (message.batch.to.phase === 'done') {
        stop()
        options.onDone()
        return
      }
      w.postMessage({ type: 'credit', version: indexer.sourceVersion() } satisfies PipelineMessage)
      options.onProgress()
    } catch (error) {
      fallBack(w, error as Error)
    }
  })
  w.on('error', (error) => fallBack(w, error))
  w.on('exit', () => fallBack(w, new Error('the reader thread exited')))
  return {
    get running() {
      return running
    },
    get usable() {
      return worker !== null
    },
    start(from) {
      if (!worker || running) return
      // Read first: if it throws, the caller's next tick starts again instead of waiting on a reader that never began.
      const version = indexer.sourceVersion()
      running = true
      worker.postMessage({ type: 'start', from, version } satisfies PipelineMessage)
    },
    stop,
  }
}

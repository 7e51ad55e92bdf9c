import { parentPort, workerData } from 'node:worker_threads'
import { openSqlite } from '../lib/sqlite.js'
import { probeSchema } from '../store/probe.js'
import { createDocReader, readBatch, readPruneEpoch, type BatchLimits, type BuildBatch, type BuildCursor } from './build-batch.js'
import { createIndexSource } from './opencode-source.js'

/** What the indexing worker passes to the build's reader thread. */
export interface BuildReaderData {
  sourcePath: string
  indexPath: string
  limits: BatchLimits
  /** Batches it may read ahead of the writer; each one written returns a credit. */
  credits: number
}

export type ReaderMessage = { type: 'batch'; batch: BuildBatch }

const data = workerData as BuildReaderData
const port = parentPort!

// Reading and parsing OpenCode's rows, and finding their code tokens, is half the build's work:
// here it runs beside the writer instead of before it. The sidecar is opened only to read the
// prune epoch, before each OpenCode snapshot (the writer compares it when it commits the batch).
const sourceDb = openSqlite(data.sourcePath, { readonly: true, fileMustExist: true, busyTimeoutMs: 2000 })
const index = openSqlite(data.indexPath, { fileMustExist: true, busyTimeoutMs: 2000 })
const source = createIndexSource(sourceDb, probeSchema(sourceDb))
const docs = createDocReader(source)
let cursor: BuildCursor | null = null
let credits = data.credits

function pump() {
  while (cursor && credits > 0 && cursor.phase !== 'done') {
    const epoch = readPruneEpoch(index)
    const from = cursor
    const batch = sourceDb.read(() => readBatch(source, docs, from, epoch, data.limits))
    port.postMessage({ type: 'batch', batch } satisfies ReaderMessage)
    cursor = batch.to
    credits--
  }
}

// 'start' gives the cursor (the writer records sessions meanwhile); each 'credit' is a batch written.
port.on('message', (message: { type: 'start'; from: BuildCursor } | { type: 'credit' }) => {
  if (message.type === 'start') cursor = message.from
  else credits++
  setImmediate(pump)
})

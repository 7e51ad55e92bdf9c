import { parentPort, workerData } from 'node:worker_threads'
import { applyConnectionMemory } from '../lib/connection-memory.js'
import { openSqlite } from '../lib/sqlite.js'
import { createIndexSources } from '../store/index-sources.js'
import { probeSchema } from '../store/probe.js'
import { createDocReader, readBatch, type BatchLimits, type BuildBatch, type BuildCursor } from './build-batch.js'

/** What the indexing worker passes to the build's reader thread. */
export interface BuildReaderData {
  sourcePath: string
  limits: BatchLimits
  /** Batches it may read ahead of the writer; each one written returns a credit. */
  credits: number
}

export type ReaderMessage = { type: 'batch'; batch: BuildBatch }

/**
 * 'start' gives the cursor (the writer records sessions meanwhile); each 'credit' is a batch
 * written. Both carry OpenCode's data version as the writer reads it then, before any batch read
 * after the message: the writer trusts a batch without comparing stamps while the version holds.
 */
export type PipelineMessage = { type: 'start'; from: BuildCursor; version: number } | { type: 'credit'; version: number }

const data = workerData as BuildReaderData
const port = parentPort!

// Reading and parsing OpenCode's rows, and finding their code tokens, is half the build's work:
// here it runs beside the writer instead of before it. Each batch carries its rows' stamps, which
// the writer checks against OpenCode under the sidecar's lock.
const sourceDb = openSqlite(data.sourcePath, { readonly: true, fileMustExist: true, busyTimeoutMs: 2000 })
applyConnectionMemory(sourceDb, 'indexSource')
const docs = createDocReader(sourceDb, createIndexSources(probeSchema(sourceDb)))
let cursor: BuildCursor | null = null
let credits = data.credits
let version: number | undefined

// One batch per turn of the event loop: credits the writer sent meanwhile are counted before the
// next batch decides whether to find code tokens.
let scheduled = false
function schedule() {
  if (scheduled) return
  scheduled = true
  setImmediate(() => {
    scheduled = false
    pump()
  })
}

function pump() {
  if (cursor && credits > 0 && cursor.phase !== 'done') {
    const from = cursor
    // The version as it was before this snapshot: one that arrives later must not vouch for it.
    const seen = version
    // Finding code tokens is about a sixth of this thread's work. While the writer has a batch
    // waiting besides the one it writes, this thread is ahead and finds them; otherwise the writer
    // would wait for it, so it leaves them to the writer. The two threads even out their loads.
    const withTerms = data.credits - credits >= 2
    const batch = sourceDb.read(() => readBatch(docs, from, data.limits, { withTerms }))
    port.postMessage({ type: 'batch', batch: { ...batch, version: seen } } satisfies ReaderMessage)
    cursor = batch.to
    credits--
    schedule()
  }
}

port.on('message', (message: PipelineMessage) => {
  version = message.version
  if (message.type === 'start') cursor = message.from
  else credits++
  schedule()
})

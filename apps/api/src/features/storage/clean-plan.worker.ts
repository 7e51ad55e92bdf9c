import { parentPort, workerData } from 'node:worker_threads'
import { createLazyTokenizer } from '../../lib/tokenizer.js'
import type { StorageLayout } from '../../store/probe.js'
import { memoPartTokens } from '../pruning/token-memo.js'
import { buildCleanPlan, type CleanPlan, type CleanPlanInput } from './clean-plan-build.js'
import { openJobReader } from './job-reader.js'

/** What the server's thread passes to a clean-up plan's thread. */
export interface CleanPlanWorkerData {
  path: string
  /** The server's probe of the file: the stores here are built from it, so both read it alike. */
  layout: StorageLayout
  input: CleanPlanInput
  /** A copy of the server's token memo; the thread answers it back with what it counted. */
  memo: Map<string, number>
}

export type CleanPlanWorkerMessage =
  | { type: 'done'; plan: CleanPlan; memo: Map<string, number> }
  | { type: 'error'; message: string }

const data = workerData as CleanPlanWorkerData
const post = (m: CleanPlanWorkerMessage) => parentPort?.postMessage(m)

// Its own connection and its own tokenizer: a whole-DB plan tokenizes every candidate's text, and
// what that grows (the tokenizer's tables, the heap, the page cache) ends with this thread.
try {
  const { db, stores } = openJobReader(data.path, data.layout)
  try {
    const memo = { counts: data.memo }
    const tokenizer = createLazyTokenizer()
    const plan = buildCleanPlan({
      db,
      writeTarget: (ctx) => data.input.writeTargets[ctx.session.storage] ?? undefined,
      partTokens: (part, storage) => memoPartTokens(memo, tokenizer, part, storage),
    }, stores, data.input)
    post({ type: 'done', plan, memo: memo.counts })
  } finally {
    db.close()
  }
} catch (error) {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) })
}

import { parentPort, workerData } from 'node:worker_threads'
import type { StorageGeneration } from '@loupe/domain'
import type { PlanOutcome } from '../../store/event-compaction.store.js'
import type { StorageLayout } from '../../store/probe.js'
import { planSessionLog } from './compact-plan-read.js'
import { openJobReader } from './job-reader.js'

/** What the server's thread passes to a compaction's planning thread. */
export interface CompactPlannerData {
  path: string
  /** The server's probe of the file: the stores here are built from it, so both read it alike. */
  layout: StorageLayout
}

export interface CompactPlanRequest {
  id: number
  generation: StorageGeneration
  sessionID: string
}

export type CompactPlanReply = { id: number; outcome: PlanOutcome | string } | { id: number; error: string }

const data = workerData as CompactPlannerData

// The scan reads every snapshot of a session's log, megabytes a row in a streamed bash run: here
// its garbage, and the heap it grows, end with the compaction instead of staying with the server.
const { db, stores } = openJobReader(data.path, data.layout)
parentPort?.on('message', (request: CompactPlanRequest) => {
  const log = stores.byGeneration[request.generation]?.eventCompaction.log
  try {
    if (!log) throw new Error(`no event log for ${request.generation}`)
    parentPort?.postMessage({ id: request.id, outcome: planSessionLog(db, log, request.sessionID) } satisfies CompactPlanReply)
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies CompactPlanReply)
  }
})

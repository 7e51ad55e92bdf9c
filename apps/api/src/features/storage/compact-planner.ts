import type { Worker } from 'node:worker_threads'
import type { StorageGeneration } from '@loupe/domain'
import { AppError } from '../../errors.js'
import { startWorker } from '../../lib/worker.js'
import type { PlanOutcome } from '../../store/event-compaction.store.js'
import type { OpenCodeHandle } from '../../store/open-opencode.js'
import type { CompactPlannerData, CompactPlanReply, CompactPlanRequest } from './compact-planner.worker.js'

/** One compaction's planning thread: sessions are planned there one at a time, and it ends with the run. */
export interface CompactPlanner {
  /** The session's plan from its whole log, or why there is none (see planSessionLog). */
  plan(generation: StorageGeneration, sessionID: string): Promise<PlanOutcome | string>
  close(): Promise<void>
}

type Pending = { resolve: (outcome: PlanOutcome | string) => void; reject: (error: AppError) => void }

/** The thread starts with the first plan asked for, so a run with nothing to plan starts none. */
export function createCompactPlanner(opencode: Pick<OpenCodeHandle, 'path' | 'layout'>): CompactPlanner {
  let worker: Worker | null = null
  let failure: AppError | null = null
  let next = 0
  const pending = new Map<number, Pending>()
  const fail = (error: AppError) => {
    failure ??= error
    for (const p of pending.values()) p.reject(failure)
    pending.clear()
  }
  const start = (): Worker => {
    const data: CompactPlannerData = { path: opencode.path, layout: opencode.layout }
    const w = startWorker(new URL('./compact-planner.worker.mjs', import.meta.url), data, 'storageJob')
    w.on('message', (reply: CompactPlanReply) => {
      const p = pending.get(reply.id)
      pending.delete(reply.id)
      if ('error' in reply) p?.reject(new AppError('unavailable', `The compaction could not read the event log: ${reply.error}`))
      else p?.resolve(reply.outcome)
    })
    w.on('error', (error) => fail(new AppError('unavailable', `The compaction's reading thread stopped: ${error.message}`)))
    w.on('exit', () => fail(new AppError('unavailable', "The compaction's reading thread stopped before it finished.")))
    return w
  }
  return {
    plan(generation, sessionID) {
      if (failure) return Promise.reject(failure)
      worker ??= start()
      const id = next++
      const request: CompactPlanRequest = { id, generation, sessionID }
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        worker?.postMessage(request)
      })
    },
    async close() {
      failure ??= new AppError('unavailable', 'The compaction has finished.')
      await worker?.terminate()
    },
  }
}

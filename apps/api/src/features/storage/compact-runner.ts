import type { CompactAnswer, CompactProgress } from './compact-answer.js'

/** The state of the one compaction a Loupe process writes at a time (dry runs do not take it). */
export type CompactRun =
  | { state: 'idle' }
  | { state: 'running'; startedAt: number; progress: CompactProgress | null; stopping: boolean }
  | { state: 'finished'; startedAt: number; finishedAt: number; answer: CompactAnswer }

export interface CompactRunner {
  status(): CompactRun
  /** Runs `job` unless one is running (then undefined); progress and stop go through the runner. */
  run(now: () => number, job: (onProgress: (p: CompactProgress) => void, signal: AbortSignal) => Promise<CompactAnswer>): Promise<CompactAnswer> | undefined
  /** Ask the running job to stop after its current batch; false when none runs. */
  stop(): boolean
}

/** One per Loupe process (a deps field, so tests get their own). */
export function createCompactRunner(): CompactRunner {
  let current: CompactRun = { state: 'idle' }
  let abort: AbortController | null = null
  return {
    status: () => current,
    run(now, job) {
      if (current.state === 'running') return undefined
      const startedAt = now()
      const controller = new AbortController()
      abort = controller
      current = { state: 'running', startedAt, progress: null, stopping: false }
      const onProgress = (progress: CompactProgress) => {
        if (current.state === 'running') current = { ...current, progress }
      }
      return job(onProgress, controller.signal)
        .then((answer) => {
          current = { state: 'finished', startedAt, finishedAt: now(), answer }
          return answer
        })
        .finally(() => {
          if (current.state === 'running') current = { state: 'idle' }
          abort = null
        })
    },
    stop() {
      if (current.state !== 'running' || !abort) return false
      abort.abort()
      current = { ...current, stopping: true }
      return true
    },
  }
}

import type { CompactAnswer, CompactProgress } from './compact-answer.js'
import { createJobRunner, type JobRunner, type JobState } from './job-runner.js'

/** What a running compaction shows: its last report, and whether a stop was asked for. */
export interface CompactRunning {
  progress: CompactProgress | null
  stopping: boolean
}

/** The state of the one compaction a Loupe process writes at a time (dry runs do not take it). */
export type CompactRun = JobState<CompactRunning, CompactAnswer, 'answer'>
export type CompactRunner = JobRunner<CompactRunning, CompactAnswer, 'answer'>

export const createCompactRunner = (onSettled?: () => void): CompactRunner => createJobRunner('answer', onSettled)

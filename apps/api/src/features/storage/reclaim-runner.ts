import { createJobRunner, type JobRunner, type JobState } from './job-runner.js'

export interface FileBytes {
  db: number
  wal: number
}

export type ReclaimPhase = 'starting' | 'copy' | 'verify' | 'swap'

/** What one reclaim ended with: the CLI prints it as JSON, the Storage page shows it. */
export type ReclaimResult =
  | { status: 'done'; before: FileBytes; after: FileBytes; backup: string | null; message: string }
  | {
      status: 'refused'
      reason: 'maintenance_required' | 'unavailable' | 'replaced' | 'changed' | 'disk_space'
      detail: string
      before: FileBytes
      after: FileBytes
      backup: null
    }
  | { status: 'failed'; reason: 'disk_full' | 'rejected' | 'error'; detail: string; before: FileBytes; after: FileBytes; backup: null }

/** What a running reclaim shows: its phase, the file's sizes before, and how far the copy has got. */
export interface ReclaimRunning {
  phase: ReclaimPhase
  before: FileBytes
  copyBytes: number
  expectedBytes: number
}

export type ReclaimState = JobState<ReclaimRunning, ReclaimResult, 'result'>
/** The one reclaim a Loupe process runs at a time (a deps field, so tests get their own); it has no stop. */
export type ReclaimRunner = JobRunner<ReclaimRunning, ReclaimResult, 'result'>

export const createReclaimRunner = (onSettled?: () => void): ReclaimRunner => createJobRunner('result', onSettled)

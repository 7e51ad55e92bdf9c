// The one clean-up a Loupe process runs at a time (a deps field): apart from the service, so the
// deps module's types need nothing from the service that takes the deps.
import { createJobRunner, type JobRunner, type JobState } from './job-runner.js'

export interface CleanTally {
  sessions: number
  messages: number
  parts: number
  bytes: number
  tokens: number
  /** Messages a prune refused (changed since the plan, OpenCode working in the session, …). */
  blocked: number
}

export type CleanResult = { status: 'done' | 'stopped'; pruned: CleanTally; planned: { sessions: number; parts: number; bytes: number; tokens: number }; message: string }

/** What a running clean-up shows: what it has pruned so far of how much, and whether a stop was asked for. */
export interface CleanRunning {
  done: CleanTally
  total: { sessions: number; messages: number }
  stopping: boolean
}

export type CleanState = JobState<CleanRunning, CleanResult, 'result'>
/** The one clean-up a Loupe process runs at a time: progress for polling, and a stop between sessions. */
export type CleanRunner = JobRunner<CleanRunning, CleanResult, 'result'>

export const emptyTally = (): CleanTally => ({ sessions: 0, messages: 0, parts: 0, bytes: 0, tokens: 0, blocked: 0 })

export const createCleanRunner = (onSettled?: () => void): CleanRunner => createJobRunner('result', onSettled)

// The one clean-up a Loupe process runs at a time (a deps field): apart from the service, so the
// deps module's types need nothing from the service that takes the deps.

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

export type CleanState =
  | { state: 'idle' }
  | { state: 'running'; startedAt: number; done: CleanTally; total: { sessions: number; messages: number }; stopping: boolean }
  | { state: 'finished'; startedAt: number; finishedAt: number; result: CleanResult }

/** The one clean-up a Loupe process runs at a time: progress for polling, and a stop between batches. */
export interface CleanRunner {
  state(): CleanState
  begin(total: { sessions: number; messages: number }, at: number): boolean
  progress(done: CleanTally): void
  stop(): boolean
  stopping(): boolean
  finish(result: CleanResult, at: number): void
}

export const emptyTally = (): CleanTally => ({ sessions: 0, messages: 0, parts: 0, bytes: 0, tokens: 0, blocked: 0 })

export function createCleanRunner(): CleanRunner {
  let current: CleanState = { state: 'idle' }
  return {
    state: () => current,
    begin(total, at) {
      if (current.state === 'running') return false
      current = { state: 'running', startedAt: at, done: emptyTally(), total, stopping: false }
      return true
    },
    progress: (done) => void (current.state === 'running' && (current = { ...current, done })),
    stop: () => current.state === 'running' && !!(current = { ...current, stopping: true }),
    stopping: () => current.state === 'running' && current.stopping,
    finish(result, at) {
      if (current.state === 'running') current = { state: 'finished', startedAt: current.startedAt, finishedAt: at, result }
    },
  }
}

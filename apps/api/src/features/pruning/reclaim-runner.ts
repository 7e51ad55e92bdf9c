export type ReclaimPhase = 'vacuum' | 'checkpoint' | 'index'

export interface FileBytes {
  db: number
  wal: number
}

/** The state of the one reclaim a Loupe process runs at a time. */
export type ReclaimStatus =
  | { state: 'idle' }
  | { state: 'running'; phase: ReclaimPhase | 'starting'; startedAt: number; before: FileBytes; now: FileBytes; expectedBytes: number }
  | {
      state: 'done'
      startedAt: number
      finishedAt: number
      before: FileBytes
      after: FileBytes
      walEmptied: boolean
      /** The search sidecar: merged and rebuilt without pruned tokens, or why not. */
      index: 'compacted' | 'busy' | 'absent' | 'failed'
      message: string
    }
  | { state: 'failed'; startedAt: number; finishedAt: number; before: FileBytes; after: FileBytes; message: string }

/** Holds the running reclaim; one per Loupe process (a deps field, so tests get their own). */
export interface ReclaimRunner {
  status(now: FileBytes): ReclaimStatus
  begin(job: Extract<ReclaimStatus, { state: 'running' }>): boolean
  update(patch: Partial<Extract<ReclaimStatus, { state: 'running' }>>): void
  finish(result: Extract<ReclaimStatus, { state: 'done' | 'failed' }>): void
  /** Resolves when the current job (if any) settles. */
  settled(): Promise<void>
}

export function createReclaimRunner(): ReclaimRunner {
  let current: ReclaimStatus = { state: 'idle' }
  const waiters: Array<() => void> = []
  return {
    status: (now) => (current.state === 'running' ? { ...current, now } : current),
    begin(job) {
      if (current.state === 'running') return false
      current = job
      return true
    },
    update(patch) {
      if (current.state === 'running') current = { ...current, ...patch }
    },
    finish(result) {
      current = result
      for (const w of waiters.splice(0)) w()
    },
    settled: () => (current.state === 'running' ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve()),
  }
}

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

export type ReclaimState =
  | { state: 'idle' }
  | { state: 'running'; phase: ReclaimPhase; startedAt: number; before: FileBytes; copyBytes: number; expectedBytes: number }
  | { state: 'finished'; startedAt: number; finishedAt: number; result: ReclaimResult }

/** The one reclaim a Loupe process runs at a time (a deps field, so tests get their own). */
export interface ReclaimRunner {
  state(): ReclaimState
  begin(job: Extract<ReclaimState, { state: 'running' }>): boolean
  update(patch: Partial<Pick<Extract<ReclaimState, { state: 'running' }>, 'phase' | 'copyBytes' | 'expectedBytes'>>): void
  finish(result: ReclaimResult, finishedAt: number): void
  /** Resolves when the current job (if any) settles. */
  settled(): Promise<void>
}

export function createReclaimRunner(): ReclaimRunner {
  let current: ReclaimState = { state: 'idle' }
  const waiters: Array<() => void> = []
  return {
    state: () => current,
    begin(job) {
      if (current.state === 'running') return false
      current = job
      return true
    },
    update(patch) {
      if (current.state === 'running') current = { ...current, ...patch }
    },
    finish(result, finishedAt) {
      if (current.state !== 'running') return
      current = { state: 'finished', startedAt: current.startedAt, finishedAt, result }
      for (const w of waiters.splice(0)) w()
    },
    settled: () => (current.state === 'running' ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve()),
  }
}

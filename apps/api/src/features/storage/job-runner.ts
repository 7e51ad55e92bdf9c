/**
 * The state of one kind of long write job (compaction, clean-up, reclaim) in a Loupe process.
 * `Progress` is what the running job reports; `Key` names the field its outcome is shown under
 * (each kind keeps the answer shape its procedures already had).
 */
export type JobState<Progress extends object, Outcome, Key extends string> =
  | { state: 'idle' }
  | ({ state: 'running'; startedAt: number } & Progress)
  | ({ state: 'finished'; startedAt: number; finishedAt: number } & Record<Key, Outcome>)

/** What a job is handed: when it started, its stop signal, and a way to report progress. */
export interface JobControl<Progress extends object> {
  startedAt: number
  signal: AbortSignal
  report(patch: Partial<Progress>): void
}

export interface JobStart<Progress extends object, Outcome> {
  now: () => number
  /** The progress shown before the job's first report. */
  initial: Progress
  /** Set: a job that throws is shown finished with this outcome (the promise still rejects); unset: idle again. */
  onError?: (error: unknown) => Outcome
}

/**
 * One slot per kind of job and Loupe process (a deps field, so tests get their own). A job whose
 * progress carries `stopping` can be stopped: `stop()` aborts its signal and sets the flag, and the
 * job ends after its current batch. Other jobs have no stop.
 */
export interface JobRunner<Progress extends object, Outcome, Key extends string> {
  status(): JobState<Progress, Outcome, Key>
  /** Runs `job` unless one of this kind is running (then undefined). */
  run(start: JobStart<Progress, Outcome>, job: (control: JobControl<Progress>) => Promise<Outcome>): Promise<Outcome> | undefined
  /** Ask the running job to stop; false when none runs or it cannot be stopped. */
  stop(): boolean
  /** Resolves when the running job (if any) has settled. */
  settled(): Promise<void>
}

/** `onSettled` runs once each job has settled, either way (the server gives back the job's heap). */
export function createJobRunner<Progress extends object, Outcome, Key extends string>(key: Key, onSettled?: () => void): JobRunner<Progress, Outcome, Key> {
  type Running = Extract<JobState<Progress, Outcome, Key>, { state: 'running' }>
  let current: JobState<Progress, Outcome, Key> = { state: 'idle' }
  let abort: AbortController | null = null
  let running: Promise<unknown> = Promise.resolve()
  const finish = (startedAt: number, finishedAt: number, outcome: Outcome) => {
    current = { state: 'finished', startedAt, finishedAt, ...({ [key]: outcome } as Record<Key, Outcome>) }
  }
  return {
    status: () => current,
    run({ now, initial, onError }, job) {
      if (current.state === 'running') return undefined
      const startedAt = now()
      const controller = new AbortController()
      abort = controller
      current = { state: 'running', startedAt, ...initial } as Running
      const report = (patch: Partial<Progress>) => {
        if (current.state === 'running') current = { ...current, ...patch }
      }
      const done = job({ startedAt, signal: controller.signal, report })
        .then(
          (outcome) => (finish(startedAt, now(), outcome), outcome),
          (error: unknown) => {
            if (onError && current.state === 'running') finish(startedAt, now(), onError(error))
            throw error
          },
        )
        .finally(() => {
          if (current.state === 'running') current = { state: 'idle' }
          abort = null
          onSettled?.()
        })
      running = done.catch(() => {})
      return done
    },
    stop() {
      if (current.state !== 'running' || !('stopping' in current) || !abort) return false
      abort.abort()
      current = { ...current, stopping: true }
      return true
    },
    settled: () => running.then(() => {}),
  }
}

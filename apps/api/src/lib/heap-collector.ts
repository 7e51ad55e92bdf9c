/**
 * A full collection of this thread's heap once a long job on it has ended. V8 collects the old
 * generation when it grows past a limit set by the last full collection, and its memory reducer,
 * which gives an idle heap back, starts only after such a collection: a job that ends below the
 * limit (a compaction's batches, a clean-up's writes) leaves its garbage committed for as long as
 * the server then idles.
 */
export interface HeapCollector {
  /** A long job ended: collect once the thread has been idle a while (calls in quick succession collect once). */
  afterJob(): void
  /** Drop a pending collection, and any later `afterJob` (the server or the thread is stopping). */
  close(): void
}

/**
 * How long after the last `afterJob` the collection runs. V8 shrinks a thread's young generation at
 * a collection only when the thread allocated little over the seconds before it (its allocation
 * rate is averaged over five): a collection right after the job keeps the job's grown new space,
 * one ten seconds later gives it back (bench/README.md).
 */
export const COLLECT_DELAY_MS = 10_000

/** `collect` null (the CLI, which exits after its job, and the tests): a collector that does nothing. */
export function createHeapCollector(collect: (() => void) | null, delayMs = COLLECT_DELAY_MS): HeapCollector {
  let timer: NodeJS.Timeout | null = null
  let closed = false
  const cancel = () => {
    if (timer) clearTimeout(timer)
    timer = null
  }
  return {
    afterJob() {
      // A job that settles while the server closes must not leave a collection behind it.
      if (!collect || closed) return
      cancel()
      timer = setTimeout(() => {
        timer = null
        collect()
      }, delayMs)
      timer.unref()
    },
    close() {
      closed = true
      cancel()
    },
  }
}

/**
 * How long the server held requests (ms) before its thread is collected once idle: a burst of
 * searches or gallery pages, or one whole-DB plan. Time a request waits (on a worker, on OpenCode)
 * counts too; at worst that asks for a collection per slow request, and calls in quick succession
 * collect once.
 */
export const REQUEST_WORK_MS = 250

/**
 * For a thread that works in many small steps (the index follower, one catch-up per OpenCode
 * commit): a collection once its steps since the last one add up to `busyMs` of work and it has
 * caught up, so a compaction's or a long run's commits are collected after, and a quiet session's
 * few commits are left to V8.
 */
export function collectAfterBusyWork(heap: HeapCollector, busyMs: number): (stepMs: number, caughtUp: boolean) => void {
  let busy = 0
  return (stepMs, caughtUp) => {
    busy += stepMs
    if (!caughtUp || busy < busyMs) return
    busy = 0
    heap.afterJob()
  }
}

/**
 * The sidecar's write lock, shared fairly between the indexing worker and the main thread.
 * SQLite's busy handler only polls, so a worker writing batch after batch (each commit followed
 * at once by the next BEGIN) can starve the main thread's prune re-index past its timeout. The
 * main thread raises a shared counter while it wants the lock; the worker waits before its next
 * transaction until the counter drops.
 */
export function createLockCourtesy(shared: SharedArrayBuffer = new SharedArrayBuffer(4)) {
  const wanted = new Int32Array(shared)
  return {
    shared,
    /** Main thread: run `fn` (which takes the lock) with the worker holding back. */
    claim<T>(fn: () => T): T {
      Atomics.add(wanted, 0, 1)
      try {
        return fn()
      } finally {
        Atomics.sub(wanted, 0, 1)
        Atomics.notify(wanted, 0)
      }
    },
    /** Worker: before taking the lock, wait (at most `maxMs`) while the main thread wants it. */
    yieldIfWanted(maxMs = 3000) {
      const until = performance.now() + maxMs
      for (let v = Atomics.load(wanted, 0); v > 0 && performance.now() < until; v = Atomics.load(wanted, 0)) {
        Atomics.wait(wanted, 0, v, 5)
      }
    },
  }
}

export type LockCourtesy = ReturnType<typeof createLockCourtesy>

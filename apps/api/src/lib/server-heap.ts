import v8 from 'node:v8'
import vm from 'node:vm'

/**
 * V8 lets each thread's old generation grow up to four times what its last full collection left
 * before it collects again, so the index build's threads and a clean-up plan's thread peaked mostly
 * on garbage. A fixed factor of 1.5 cost the plan and the build no CPU the benches could tell
 * (bench/README.md). V8 reads it at each collection, in every thread, so setting it at run time
 * reaches the server however it was started (an installed `loupe serve` has no flags).
 */
const HEAP_GROWING_PERCENT = 50

/**
 * The server's heap settings for this process, before any worker starts; returns V8's full
 * collection for the heap collector, or null where it cannot be had.
 */
export function configureServerHeap(): (() => void) | null {
  try {
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
    // The launchers' `--max-semi-space-size` sized this thread's young generation when it started.
    // V8 would apply it to each worker as well, over the young generation `startWorker` gives the
    // worker; cleared, each worker has the size chosen for it, however the server was started.
    v8.setFlagsFromString('--max-semi-space-size=0')
  } catch {
    return null
  }
  return takeFullCollection()
}

/**
 * V8's full collection of the calling thread's heap, without a launch flag. `--expose-gc` set at
 * run time gives each context made afterwards a `gc` function: a context of its own takes it, and
 * the flag is cleared again, so no global scope, the server's or a worker's, keeps one. The flag is
 * the process's, and a worker cannot be given V8 flags of its own: a thread that starts in that
 * moment (a storage job's, while the follower starts) would get a `gc` global, which only lets it
 * collect its own heap. Node warns that a flag changed after start-up may do nothing or worse; this
 * one V8 reads only when it makes a context, which server-heap.test.ts checks in a worker too.
 */
export function takeFullCollection(): (() => void) | null {
  try {
    v8.setFlagsFromString('--expose-gc')
    const gc: unknown = vm.runInNewContext('typeof gc === "function" ? gc : null')
    v8.setFlagsFromString('--no-expose-gc')
    return typeof gc === 'function' ? () => void gc() : null
  } catch {
    return null
  }
}

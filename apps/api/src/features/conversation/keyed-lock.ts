/** Serializes async work per key within this process; held on AppDeps, never at module level. */
export interface KeyedLock {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>
  /** Keys with work queued or running (for tests and diagnostics). */
  readonly size: number
}

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>()
  return {
    run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve()
      const result = previous.then(fn, fn)
      const tail = result.then(
        () => undefined,
        () => undefined,
      )
      tails.set(key, tail)
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key)
      })
      return result
    },
    get size() {
      return tails.size
    },
  }
}

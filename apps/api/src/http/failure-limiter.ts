import type { Clock } from '../lib/clock.js'

export interface FailureLimiter {
  /** True while `key` has used up its failures in the current window. */
  blocked(key: string): boolean
  fail(key: string): void
}

/**
 * Failed credentials per client address in a fixed window: after `max` failures the caller answers
 * 429 until the window ends. Callers check a credential before asking, so a valid one is never
 * counted or refused (a guesser on the same address or NAT cannot lock its owner out).
 */
export function createFailureLimiter(options: { max: number; windowMs: number; clock: Clock; maxKeys?: number }): FailureLimiter {
  const windows = new Map<string, { start: number; count: number }>()
  const current = (key: string) => {
    const now = options.clock.now()
    const w = windows.get(key)
    if (w && now - w.start < options.windowMs) return w
    windows.delete(key)
    return undefined
  }
  return {
    blocked: (key) => (current(key)?.count ?? 0) >= options.max,
    fail(key) {
      const w = current(key)
      if (w) w.count++
      else {
        if (windows.size >= (options.maxKeys ?? 10_000)) windows.delete(windows.keys().next().value!)
        windows.set(key, { start: options.clock.now(), count: 1 })
      }
    },
  }
}

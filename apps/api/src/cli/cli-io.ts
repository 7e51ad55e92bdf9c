/** Where the CLI writes: one JSON object (or a human summary) on out, progress on err. */
export interface CliIo {
  out(text: string): void
  err(text: string): void
}

/** Exit codes: 0 done, 2 refused (the reason is in the JSON), 1 error. */
export const EXIT = { done: 0, error: 1, refused: 2 } as const

export interface CommandResult {
  code: (typeof EXIT)[keyof typeof EXIT]
  json: unknown
  /** Lists: with --json, one JSON object per line instead of `json` (a refusal has none). */
  jsonLines?: unknown[]
  /** The same answer for a person. */
  text: string
}

/** Progress on stderr at most every 200 ms, one line each (no carriage returns: logs stay readable). */
export function createProgress(io: CliIo, now: () => number = Date.now) {
  let last = 0
  return (line: string, force = false) => {
    const t = now()
    if (!force && t - last < 200) return
    last = t
    io.err(`${line}\n`)
  }
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB']
export function formatBytes(n: number): string {
  let v = n
  let u = 0
  while (v >= 1000 && u < UNITS.length - 1) {
    v /= 1000
    u++
  }
  return `${u === 0 ? v : v.toFixed(1)} ${UNITS[u]}`
}

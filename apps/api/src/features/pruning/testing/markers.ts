import { randomBytes } from 'node:crypto'
import fs from 'node:fs'

/** A string that exists nowhere until a test writes it, so counting it in a file proves where bytes went. */
export const newMarker = (label: string) => `LOUPE-${label}-${randomBytes(8).toString('hex')}`

/** Occurrences of `marker` in the database file and its WAL. */
export function countInFiles(file: string, marker: string): { db: number; wal: number } {
  const count = (path: string) => {
    if (!fs.existsSync(path)) return 0
    const bytes = fs.readFileSync(path)
    const needle = Buffer.from(marker)
    let n = 0
    for (let i = bytes.indexOf(needle); i !== -1; i = bytes.indexOf(needle, i + 1)) n++
    return n
  }
  return { db: count(file), wal: count(`${file}-wal`) }
}

/** Poll until `fn` answers truthy (or fail after `ms`). */
export async function waitFor<T>(fn: () => Promise<T> | T, ms = 30_000, what = 'condition'): Promise<T> {
  const t0 = Date.now()
  for (;;) {
    const value = await fn()
    if (value) return value
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 150))
  }
}

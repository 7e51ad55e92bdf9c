import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { copyDb, realFixture, tempDir } from '../../test/harness.js'
import { bloatDb } from '../features/storage/testing/bloat-db.js'
import { rowCounts, runLoupe } from '../../test/run-loupe.js'

const dir = tempDir('loupe-kill-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

// A seeded generator: a failing kill point can be replayed.
function random(seed: number) {
  let s = seed >>> 0
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32)
}

describe('loupe reclaim under SIGKILL', () => {
  it('leaves the old or the new file whole, with every row, wherever it is killed', async () => {
    const db = copyDb((await realFixture()).db, dir)
    bloatDb(db, { snapshots: 160, stepBytes: 2500 })
    const rows = rowCounts(db)
    expect(rows.integrity).toBe('ok')
    const next = random(24)
    // How long the work takes once the CLI has started (its start-up, tsx included, is not the point).
    const t0 = { at: 0 }
    const timed = await runLoupe(dir, ['reclaim', '--db', db, '--json'], { onStderr: (line) => line.startsWith('reclaim: starting') && !t0.at && (t0.at = Date.now()) })
    const workMs = Date.now() - t0.at
    expect(timed.code).toBe(0)
    const outcomes: string[] = []
    // Random points over the copy and verification, and one kill the moment the swap begins.
    const points: Array<number | 'swap'> = [...Array.from({ length: 6 }, () => Math.floor(next() * workMs)), 'swap']
    for (const point of points) {
      let armed = false
      const run = await runLoupe(dir, ['reclaim', '--db', db, '--json'], {
        onStderr: (line, kill) => {
          if (point === 'swap' ? line.startsWith('reclaim: swap') : line.startsWith('reclaim: starting') && !armed) {
            armed = true
            if (point === 'swap') kill()
            else setTimeout(kill, point)
          }
        },
      })
      outcomes.push(run.code === null ? `killed@${point}` : `exit ${run.code}`)
      expect(rowCounts(db), `after a kill at ${point} ms`).toEqual(rows)
    }
    // The run after the kills clears the copies they left and succeeds.
    const last = await runLoupe(dir, ['reclaim', '--db', db, '--json'])
    expect(last.code).toBe(0)
    expect(fs.readdirSync(dir).filter((n) => n.includes('.reclaim-'))).toEqual([])
    for (const backup of fs.readdirSync(dir).filter((n) => n.includes('.backup-'))) expect(rowCounts(path.join(dir, backup))).toEqual(rows)
    expect(outcomes.filter((o) => o.startsWith('killed')).length).toBeGreaterThan(3)
  }, 300_000)
})

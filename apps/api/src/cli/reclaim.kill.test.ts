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
    bloatDb(db, { snapshots: 250, stepBytes: 2500 })
    const rows = rowCounts(db)
    expect(rows.integrity).toBe('ok')
    const next = random(24)
    // When each phase starts in an undisturbed run (the CLI's start-up, tsx included, is not the point).
    const seen = new Map<string, number>()
    const timed = await runLoupe(dir, ['reclaim', '--db', db, '--json'], { onStderr: (line) => seen.set(line.split(' ')[1] ?? '', seen.get(line.split(' ')[1] ?? '') ?? Date.now()) })
    expect(timed.code).toBe(0)
    const at = (phase: string) => seen.get(phase) ?? Date.now()
    const window = { copy: at('verify') - at('copy'), verify: at('swap') - at('verify') }
    // Random points inside the copy and the verification, and one kill the moment the swap begins.
    const points: Array<{ phase: 'copy' | 'verify' | 'swap'; delayMs: number }> = [
      ...Array.from({ length: 4 }, () => ({ phase: 'copy' as const, delayMs: Math.floor(next() * window.copy) })),
      ...Array.from({ length: 2 }, () => ({ phase: 'verify' as const, delayMs: Math.floor(next() * window.verify) })),
      { phase: 'swap', delayMs: 0 },
    ]
    const outcomes: string[] = []
    for (const point of points) {
      let armed = false
      const run = await runLoupe(dir, ['reclaim', '--db', db, '--json'], {
        onStderr: (line, kill) => {
          if (armed || !line.startsWith(`reclaim: ${point.phase}`)) return
          armed = true
          if (point.delayMs === 0) kill()
          else setTimeout(kill, point.delayMs)
        },
      })
      outcomes.push(run.code === null ? `killed in ${point.phase} +${point.delayMs} ms` : `exit ${run.code}`)
      expect(rowCounts(db), `after a kill in ${point.phase} at +${point.delayMs} ms`).toEqual(rows)
    }
    // The run after the kills clears the copies they left and succeeds.
    const last = await runLoupe(dir, ['reclaim', '--db', db, '--json'])
    expect(last.code).toBe(0)
    expect(fs.readdirSync(dir).filter((n) => n.includes('.reclaim-'))).toEqual([])
    for (const backup of fs.readdirSync(dir).filter((n) => n.includes('.backup-'))) expect(rowCounts(path.join(dir, backup))).toEqual(rows)
    expect(outcomes.filter((o) => o.startsWith('killed')).length, outcomes.join('; ')).toBeGreaterThanOrEqual(4)
  }, 300_000)
})

import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyDb, realFixture, tempDir } from '../../test/harness.js'
import { bloatDb, dropSnapshots } from '../features/storage/testing/bloat-db.js'
import { rowCounts, runLoupe } from '../../test/run-loupe.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')

async function workDir(bloat = false) {
  const dir = tempDir('loupe-cli-')
  dirs.push(dir)
  const db = copyDb((await realFixture()).db, path.join(dir))
  if (bloat) {
    bloatDb(db, { snapshots: 80, stepBytes: 3000 })
    dropSnapshots(db, 30)
  }
  return { dir, db }
}

describe('loupe doctor', () => {
  it('prints one JSON object with the tables, the event split, the biggest sessions and the data dir', async () => {
    const { dir } = await workDir()
    const run = await runLoupe(dir, ['doctor', '--db', 'opencode.db', '--json'])
    expect(run.code).toBe(0)
    const out = JSON.parse(run.stdout) as Record<string, any>
    expect(Object.keys(out)).toEqual(expect.arrayContaining(['tables', 'events', 'sessions', 'dataDir']))
    expect(out.tables.event).toBeGreaterThan(0)
    expect(Object.keys(out.events).sort()).toEqual(['current', 'redacted', 'superseded'])
    expect(Object.keys(out.sessions[0])).toEqual(expect.arrayContaining(['id', 'title', 'bytes', 'eventBytes']))
    expect(run.stderr).toContain('doctor: done')
  })

  it('finds OpenCode’s own database as npm start does, and fails with exit 1 on a bad flag or no database', async () => {
    const { dir, db } = await workDir()
    fs.mkdirSync(path.join(dir, 'xdg-data', 'opencode'), { recursive: true })
    const run1 = await runLoupe(dir, ['doctor', '--json', '--bogus'])
    expect(run1.code).toBe(1)
    expect(JSON.parse(run1.stdout)).toMatchObject({ status: 'error', message: 'unknown option --bogus' })
    const run2 = await runLoupe(dir, ['doctor', '--json'])
    expect(run2.code).toBe(1)
    expect(JSON.parse(run2.stdout).message).toContain('No OpenCode database found')
    fs.renameSync(db, path.join(dir, 'xdg-data', 'opencode', 'opencode.db'))
    const run3 = await runLoupe(dir, ['doctor'])
    expect(run3.code).toBe(0)
    expect(run3.stdout).toContain('event log:')
  })
})

describe('loupe reclaim', () => {
  it('reclaims (exit 0), refuses while another process holds the file (exit 2), and keeps the original whole on a full disk (exit 1)', async () => {
    const { dir, db } = await workDir(true)
    const rows = rowCounts(db)
    const original = sha(db)
    const size = fs.statSync(db).size
    // A file-size limit below the copy's size: the copy's writes fail as on a full disk.
    const full = await runLoupe(dir, ['reclaim', '--db', db, '--json'], { shellPrefix: `trap '' XFSZ; ulimit -f ${Math.floor(size / 1024 / 4)}` })
    expect(full.code).toBe(1)
    expect(JSON.parse(full.stdout)).toMatchObject({ status: 'failed', reason: 'disk_full', backup: null })
    expect(sha(db)).toBe(original)
    expect(fs.readdirSync(dir).filter((n) => n.includes('.reclaim-'))).toEqual([])

    const holder = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(db)}, 'r'); console.log('open'); setInterval(() => {}, 1000)`], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      await new Promise((resolve) => holder.stdout.once('data', resolve))
      const refused = await runLoupe(dir, ['reclaim', '--db', db, '--json'])
      expect(refused.code).toBe(2)
      expect(JSON.parse(refused.stdout)).toMatchObject({ status: 'refused', reason: 'maintenance_required' })
    } finally {
      holder.kill('SIGKILL')
    }
    const done = await runLoupe(dir, ['reclaim', '--db', db, '--json', '--no-backup'])
    expect(done.code).toBe(0)
    const out = JSON.parse(done.stdout)
    expect(out).toMatchObject({ status: 'done', backup: null, after: { wal: 0 } })
    expect(out.after.db).toBeLessThan(out.before.db)
    expect(rowCounts(db)).toEqual(rows)
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('opencode.db.'))).toEqual([])
  }, 120_000)
})

describe('loupe clean', () => {
  it('is a dry run with a fingerprint, applies that fingerprint (exit 0), and refuses it once stale (exit 2)', async () => {
    const { dir, db } = await workDir()
    const args = ['clean', '--db', db, '--data-dir', path.join(dir, 'loupe'), '--idle-days', '0', '--json']
    const dry = await runLoupe(dir, args)
    expect(dry.code).toBe(0)
    const plan = JSON.parse(dry.stdout)
    expect(plan).toMatchObject({ status: 'planned', dryRun: true, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(plan.parts).toBeGreaterThan(0)
    const apply = await runLoupe(dir, [...args, '--apply', plan.fingerprint])
    expect(apply.code).toBe(0)
    expect(JSON.parse(apply.stdout)).toMatchObject({ status: 'done', dryRun: false, parts: plan.parts, sessions: plan.sessions })
    const again = await runLoupe(dir, [...args, '--apply', plan.fingerprint])
    expect(again.code).toBe(2)
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'conflict' })
    expect(rowCounts(db).integrity).toBe('ok')
    const bad = await runLoupe(dir, ['clean', '--db', db, '--json'])
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.stdout).message).toContain('--idle-days')
  }, 120_000)
})


describe('loupe compact', () => {
  it('counts in a dry run (exit 0, nothing written), redacts with --apply, and a second run finds nothing', async () => {
    const { dir, db } = await workDir(true)
    const before = sha(db)
    const dry = await runLoupe(dir, ['compact', '--db', 'opencode.db', '--json'])
    expect(dry.code).toBe(0)
    const planned = JSON.parse(dry.stdout) as Record<string, any>
    expect(Object.keys(planned)).toEqual(expect.arrayContaining(['status', 'dryRun', 'sessions', 'eventsRedacted', 'eventBytesBefore', 'eventBytesAfter', 'refused']))
    expect(planned).toMatchObject({ status: 'done', dryRun: true })
    expect(planned.eventsRedacted).toBeGreaterThan(0)
    expect(planned.eventBytesAfter).toBeLessThan(planned.eventBytesBefore)
    expect(sha(db)).toBe(before)

    const applied = await runLoupe(dir, ['compact', '--db', 'opencode.db', '--apply', '--json'])
    expect(applied.code).toBe(0)
    expect(JSON.parse(applied.stdout)).toMatchObject({ status: 'done', dryRun: false, eventsRedacted: planned.eventsRedacted, eventBytesAfter: planned.eventBytesAfter })
    const again = await runLoupe(dir, ['compact', '--db', 'opencode.db', '--json'])
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'done', eventsRedacted: 0 })
  })
})

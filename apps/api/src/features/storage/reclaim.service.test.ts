import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { listBackups } from './reclaim-files.js'
import { bloatDb, dropSnapshots } from './testing/bloat-db.js'

let deps: TestDeps | undefined
afterEach(() => deps?.cleanup())

const countAll = (file: string) => {
  const db = new Database(file, { readonly: true })
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[]
  const out = Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get()]))
  db.close()
  return out
}

async function bloatedDeps() {
  const fixture = (await realFixture()).db
  const d = await createTestDeps(fixture)
  d.opencode.db.close()
  bloatDb(d.opencode.path, { snapshots: 60, stepBytes: 4000 })
  dropSnapshots(d.opencode.path, 40)
  d.opencode.reopen()
  return d
}

describe('storage.reclaim', () => {
  it('swaps in a verified compacted copy, keeps the original as a backup and reopens the handle on the new file', async () => {
    deps = await bloatedDeps()
    const caller = createCaller({ deps })
    const file = deps.opencode.path
    const rows = countAll(file)
    const status = await caller.storage.reclaimStatus()
    expect(status.freeBytes).toBeGreaterThan(1_000_000)
    const oldIdentity = deps.opencode.identity
    expect(await caller.storage.reclaim({ confirm: 'reclaim' })).toEqual({ status: 'started' })
    await deps.storage.reclaim.settled()
    const after = await caller.storage.reclaimStatus()
    expect(after.state).toMatchObject({ state: 'finished', result: { status: 'done' } })
    const result = after.state.state === 'finished' ? after.state.result : null
    expect(result?.after.db).toBeLessThan((result?.before.db ?? 0) - 1_000_000)
    expect(after.freeBytes).toBe(0)
    // The server's handle is on the new inode, and reads through it work.
    expect(deps.opencode.identity.ino).not.toBe(oldIdentity.ino)
    expect(deps.opencode.isSameFile()).toBe(true)
    expect((await caller.sessions.list({})).sessions.length).toBeGreaterThan(0)
    expect(countAll(file)).toEqual(rows)
    expect(String(deps.opencode.db.raw.pragma('journal_mode', { simple: true }))).toBe('wal')
    // The original, whole, beside it until the user removes it.
    const [backup] = listBackups(file)
    expect(backup && result?.backup).toBe(path.join(path.dirname(file), `opencode.db.backup-${backup?.stamp}`))
    expect(countAll(result?.backup ?? '')).toEqual(rows)
    expect(await caller.storage.removeBackup({ stamp: backup?.stamp ?? '' })).toEqual({ removed: backup?.stamp })
    expect(listBackups(file)).toEqual([])
    expect(fs.readdirSync(path.dirname(file)).filter((n) => n.includes('.reclaim-'))).toEqual([])
  })

  it('refuses while another process holds the file, and when the file was replaced under Loupe', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    const file = deps.opencode.path
    const holder = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(file)}, 'r'); console.log('open'); setInterval(() => {}, 1000)`], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      await new Promise((resolve) => holder.stdout.once('data', resolve))
      const answer = await caller.storage.reclaim({ confirm: 'reclaim' })
      expect(answer).toMatchObject({ status: 'refused', reason: 'maintenance_required' })
      expect(answer.status === 'refused' && answer.detail).toContain(String(holder.pid))
    } finally {
      holder.kill('SIGKILL')
    }
    const before = fs.statSync(file).ino
    fs.copyFileSync(file, `${file}.other`)
    fs.renameSync(`${file}.other`, file)
    expect(await caller.storage.reclaim({ confirm: 'reclaim' })).toMatchObject({ status: 'refused', reason: 'replaced' })
    expect(fs.statSync(file).ino).not.toBe(before)
    expect(listBackups(file)).toEqual([])
  })

  it('waits for a running doctor scan instead of swapping the file under it', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    expect((await caller.storage.doctor({})).state).toBe('running')
    expect(await caller.storage.reclaim({ confirm: 'reclaim' })).toMatchObject({ status: 'refused', reason: 'maintenance_required', detail: expect.stringContaining('doctor') })
    await deps.storage.doctor.job?.done
    expect(await caller.storage.reclaim({ confirm: 'reclaim', keepBackup: false })).toEqual({ status: 'started' })
    // A second one while the first runs is refused, not reported as started.
    expect(await caller.storage.reclaim({ confirm: 'reclaim' })).toMatchObject({ status: 'refused', detail: 'A reclaim is already running.' })
    await deps.storage.reclaim.settled()
    expect(deps.storage.reclaim.status()).toMatchObject({ state: 'finished', result: { status: 'done' } })
  })

  it('carries what is still only in the write-ahead log into the new file, and the backup keeps it too', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    const file = deps.opencode.path
    const id = deps.opencode.db.getSql<{ id: string }>(`SELECT id FROM session ORDER BY id LIMIT 1`)?.id ?? ''
    const writer = new Database(file)
    writer.pragma('wal_autocheckpoint = 0')
    writer.prepare(`UPDATE session SET title = 'only in the WAL' WHERE id = ?`).run(id)
    writer.close()
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0)
    expect(await caller.storage.reclaim({ confirm: 'reclaim' })).toEqual({ status: 'started' })
    await deps.storage.reclaim.settled()
    const state = deps.storage.reclaim.status()
    expect(state).toMatchObject({ state: 'finished', result: { status: 'done' } })
    const titleIn = (f: string) => {
      const db = new Database(f, { readonly: true })
      const title = db.prepare(`SELECT title FROM session WHERE id = ?`).pluck().get(id)
      db.close()
      return title
    }
    expect(deps.opencode.db.getSql<{ title: string }>(`SELECT title FROM session WHERE id = ?`, [id])?.title).toBe('only in the WAL')
    expect(titleIn(state.state === 'finished' && state.result.status === 'done' ? (state.result.backup ?? '') : '')).toBe('only in the WAL')
  })

  it('rejects a malformed backup stamp and answers not_found for an unknown one', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    await expect(caller.storage.removeBackup({ stamp: '../../etc/passwd' })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(caller.storage.removeBackup({ stamp: '20261201T225516812Z' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir } from '../../test/harness.js'
import { AppError } from '../errors.js'
import { openOpenCode } from './open-opencode.js'

const dirs: string[] = []
const scratch = () => {
  const dir = tempDir()
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

describe('openOpenCode', () => {
  it('gives a clear unavailable error for a path that does not exist', () => {
    const missing = path.join(scratch(), 'nope', 'opencode.db')
    expect(() => openOpenCode(missing)).toThrowError(expect.objectContaining({ code: 'unavailable', message: expect.stringContaining(missing) }))
  })

  it('gives a clear error for a file that is not SQLite', () => {
    const file = path.join(scratch(), 'opencode.db')
    fs.writeFileSync(file, 'this is not a database, just text '.repeat(100))
    expect(() => openOpenCode(file)).toThrowError(AppError)
  })

  it('opens an unrecognized schema read-only in effect and refuses session procedures with unsupported_storage', async () => {
    const file = path.join(scratch(), 'other.db')
    const other = new Database(file)
    other.exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')`)
    other.close()
    const before = fs.readFileSync(file)
    const deps = await createTestDeps(file)
    try {
      expect(deps.opencode.layout.readable).toBe(false)
      expect(deps.opencode.readonly).toBe(true)
      const caller = createCaller({ deps })
      const info = await caller.storage.info()
      expect(info.supported).toMatchObject({ read: false, write: false })
      expect(info.supported.reasons.join(' ')).toMatch(/no OpenCode session tables/)
      await expect(caller.sessions.list({})).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
      await expect(caller.sessions.get({ sessionID: 'ses_x' })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
    } finally {
      deps.cleanup()
    }
    expect(fs.readFileSync(file).equals(before)).toBe(true)
  })

  it('does not crash on a database another process holds exclusively: a typed, retryable error', async () => {
    const file = copyDb((await realFixture()).db, scratch())
    const holder = new Database(file)
    holder.pragma('locking_mode = EXCLUSIVE')
    holder.exec('BEGIN EXCLUSIVE')
    try {
      expect(() => openOpenCode(file, { readBusyMs: 50 })).toThrowError(expect.objectContaining({ code: 'maintenance_required', message: expect.stringMatching(/locked/) }))
    } finally {
      holder.exec('COMMIT')
      holder.close()
    }
    const opened = openOpenCode(file)
    expect(opened.layout.readable).toBe(true)
    opened.db.close()
  })

  it('notices when the file at the path is replaced', async () => {
    const deps = await createTestDeps((await realFixture()).db)
    try {
      expect(deps.opencode.isSameFile()).toBe(true)
      const moved = deps.opencode.path + '.old'
      fs.renameSync(deps.opencode.path, moved)
      fs.copyFileSync(moved, deps.opencode.path)
      expect(deps.opencode.isSameFile()).toBe(false)
    } finally {
      deps.cleanup()
    }
  })
})

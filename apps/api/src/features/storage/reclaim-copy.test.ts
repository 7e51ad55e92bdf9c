import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/harness.js'
import { CopyRejected, verifyCopy } from './reclaim-copy.mjs'

describe('verifyCopy', () => {
  let dir: string
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  /** A small database with an index, and its VACUUM INTO copy. */
  function copied() {
    dir = tempDir()
    const file = path.join(dir, 'opencode.db')
    const source = new Database(file)
    source.pragma('journal_mode = WAL')
    source.exec(`CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL); CREATE INDEX t_v ON t(v)`)
    const insert = source.prepare(`INSERT INTO t(v) VALUES (?)`)
    for (let i = 0; i < 100; i++) insert.run(`value-${String(i).padStart(6, '0')}`)
    const target = path.join(dir, 'copy.db')
    source.prepare('VACUUM INTO ?').run(target)
    return { source, target }
  }

  it('accepts a whole copy and puts it in WAL mode', () => {
    const { source, target } = copied()
    expect(verifyCopy(source, target)).toEqual({ t: 100 })
    source.close()
    const copy = new Database(target, { readonly: true })
    expect(copy.pragma('journal_mode', { simple: true })).toBe('wal')
    copy.close()
  })

  it('rejects a copy whose index no longer matches its table, which quick_check would pass', () => {
    const { source, target } = copied()
    const probe = new Database(target, { readonly: true })
    const root = probe.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 't_v'`).pluck().get() as number
    const pageSize = probe.pragma('page_size', { simple: true }) as number
    probe.close()
    // One key in the index's page changed, the row it points to left as it was.
    const bytes = fs.readFileSync(target)
    const page = bytes.subarray((root - 1) * pageSize, root * pageSize)
    const at = page.indexOf('value-000050')
    expect(at).toBeGreaterThan(0)
    page.write('value-000049', at)
    fs.writeFileSync(target, bytes)
    const quick = new Database(target, { readonly: true })
    expect(quick.pragma('quick_check', { simple: true })).toBe('ok')
    quick.close()
    expect(() => verifyCopy(source, target)).toThrow(CopyRejected)
    expect(() => verifyCopy(source, target)).toThrow(/integrity_check/)
    source.close()
  })
})

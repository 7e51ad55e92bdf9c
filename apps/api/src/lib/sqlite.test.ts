import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../test/harness.js'
import { openSqlite } from './sqlite.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function lockedPair() {
  const dir = tempDir()
  dirs.push(dir)
  const file = path.join(dir, 'x.db')
  const setup = new Database(file)
  setup.exec(`PRAGMA journal_mode = DELETE; CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)`)
  setup.close()
  const db = openSqlite(file, { busyTimeoutMs: 20 })
  const holder = new Database(file)
  return { db, holder }
}

describe('SqliteDb', () => {
  it('answers the same statement as objects, plucked values or arrays, whichever was asked first', () => {
    const db = openSqlite(':memory:')
    db.runSql('CREATE TABLE t (a INTEGER, b TEXT)')
    db.runSql(`INSERT INTO t VALUES (1, 'x'), (2, 'y')`)
    const sql = 'SELECT a, b FROM t ORDER BY a'
    expect(db.pluckSql<number>(sql)).toEqual([1, 2])
    expect(db.allSql(sql)).toEqual([{ a: 1, b: 'x' }, { a: 2, b: 'y' }])
    expect(db.rowsSql(sql)).toEqual([[1, 'x'], [2, 'y']])
    expect(db.pluckSql<number>(sql)).toEqual([1, 2])
    db.close()
  })

  it('turns a lock held by another connection into a typed maintenance_required on read', () => {
    const { db, holder } = lockedPair()
    holder.exec('BEGIN EXCLUSIVE')
    expect(() => db.read(() => db.getSql('SELECT v FROM t'))).toThrowError(expect.objectContaining({ code: 'maintenance_required' }))
    holder.exec('COMMIT')
    expect(db.read(() => db.getSql<{ v: number }>('SELECT v FROM t'))).toEqual({ v: 1 })
    holder.close()
    db.close()
  })

  it('answers busy from write() instead of throwing, and leaves nothing half-done', () => {
    const { db, holder } = lockedPair()
    holder.exec('BEGIN IMMEDIATE')
    expect(db.write(() => db.runSql('UPDATE t SET v = 2'), 20)).toEqual({ ok: false, busy: true })
    holder.exec('COMMIT')
    expect(db.write(() => db.runSql('UPDATE t SET v = 3'))).toEqual({ ok: true, value: 1 })
    expect(holder.prepare('SELECT v FROM t').get()).toEqual({ v: 3 })
    holder.close()
    db.close()
  })

  it('rolls the whole write back when the function throws', () => {
    const { db, holder } = lockedPair()
    expect(() => db.write(() => {
      db.runSql('UPDATE t SET v = 9')
      throw new Error('boom')
    })).toThrow('boom')
    expect(holder.prepare('SELECT v FROM t').get()).toEqual({ v: 1 })
    holder.close()
    db.close()
  })

  it('refuses to open a write inside another transaction', () => {
    const { db, holder } = lockedPair()
    expect(() => db.read(() => db.write(() => 1))).toThrow(/inside an open transaction/)
    holder.close()
    db.close()
  })
})

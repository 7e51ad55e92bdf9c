import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureRealFixture } from '../../../../tools/fixtures.mjs'
import { buildV2Fixture, createPrefixedV2Schema } from '../../test/fixtures/v2-fixture.js'
import { generateDemoDb } from '@loupe/demo'
import { openSqlite } from '../lib/sqlite.js'
import { probeSchema, type StorageLayout } from './probe.js'

describe('probeSchema', () => {
  let dir: string
  const file = (name: string) => path.join(dir, name)
  const probe = (name: string, prepare?: (db: Database.Database) => void): StorageLayout => {
    if (prepare) {
      const raw = new Database(file(name))
      prepare(raw)
      raw.close()
    }
    const db = openSqlite(file(name), { fileMustExist: true })
    try {
      return probeSchema(db)
    } finally {
      db.close()
    }
  }
  const generations = (layout: StorageLayout) => layout.generations.map((g) => `${g.generation}:${g.sessionTable}${g.experimental ? ':experimental' : ''}`)

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-probe-'))
    generateDemoDb(file('demo.db'), { now: Date.UTC(2026, 10, 1), sessions: 3 })
  })
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it("recognises a file the real OpenCode 1.18.33 wrote, with 1.18's experimental 2.x rows", async () => {
    fs.copyFileSync(path.join(await ensureRealFixture(), 'opencode.db'), file('real.db'))
    const layout = probe('real.db')
    expect(generations(layout)).toEqual(['v1:session', 'v2:session:experimental'])
    expect(layout).toMatchObject({ readable: true, writable: true, eventLog: true, kv: false, blobTables: 'absent', triggers: [], tablePrefix: null, problems: [] })
    expect(layout.migrations).toEqual({ count: 38, last: '20260622202450_simplify_session_input', unknown: [] })
    expect(layout.opencodeVersions).toEqual(['1.18.33'])
  })

  it('sees only 1.x in a plain 1.18.33 file, whose session_message table is empty', () => {
    const layout = probe('demo.db')
    expect(generations(layout)).toEqual(['v1:session'])
    expect(layout).toMatchObject({ readable: true, writable: true, problems: [] })
  })

  it('recognises a fresh 2.x file and an upgraded one holding both generations', () => {
    buildV2Fixture(file('fresh.db'), { variant: 'fresh' })
    buildV2Fixture(file('upgraded.db'), { variant: 'upgraded' })
    const fresh = probe('fresh.db')
    expect(generations(fresh)).toEqual(['v2:session_v2'])
    expect(fresh).toMatchObject({ readable: true, writable: true, kv: true, eventLog: true, problems: [] })
    expect(fresh.migrations).toEqual({ count: 49, last: '20261006120000_key_credential_configuration', unknown: [] })
    expect(fresh.opencodeVersions).toEqual(['2.0.26'])
    const upgraded = probe('upgraded.db')
    expect(generations(upgraded)).toEqual(['v1:session', 'v2:session_v2'])
    expect(upgraded).toMatchObject({ readable: true, writable: true, problems: [] })
    expect(upgraded.opencodeVersions).toEqual(['1.18.33', '2.0.26'])
  })

  it('refuses a table-prefixed database with a problem that names the prefix', () => {
    createPrefixedV2Schema(file('prefixed.db'), 'opencode_')
    const layout = probe('prefixed.db')
    expect(layout).toMatchObject({ generations: [], tablePrefix: 'opencode_', readable: false, writable: false })
    expect(layout.problems.join('\n')).toMatch(/prefix "opencode_"/)
  })

  it('reads but will not write a file with a migration it does not know', () => {
    fs.copyFileSync(file('demo.db'), file('future.db'))
    const layout = probe('future.db', (db) => db.prepare('INSERT INTO migration (id, time_completed) VALUES (?, ?)').run('20270101000000_future_change', 1))
    expect(layout).toMatchObject({ readable: true, writable: false })
    expect(layout.migrations.unknown).toEqual(['20270101000000_future_change'])
    expect(layout.problems.join('\n')).toMatch(/unknown OpenCode migration\(s\): 20270101000000_future_change/)
  })

  it('reads but will not write a file with a trigger', () => {
    fs.copyFileSync(file('demo.db'), file('trigger.db'))
    const layout = probe('trigger.db', (db) => db.exec(`CREATE TRIGGER part_audit AFTER DELETE ON part BEGIN SELECT 1; END`))
    expect(layout).toMatchObject({ readable: true, writable: false, triggers: ['part_audit'] })
    expect(layout.problems.join('\n')).toMatch(/trigger\(s\) part_audit/)
  })

  it('will not write while another database is attached', () => {
    new Database(file('other.db')).close()
    const db = openSqlite(file('demo.db'), { fileMustExist: true })
    try {
      db.raw.exec(`ATTACH DATABASE '${file('other.db')}' AS other`)
      const layout = probeSchema(db)
      expect(layout).toMatchObject({ readable: true, writable: false, attachedDatabases: 2 })
      expect(layout.problems).toContain('another database is attached')
    } finally {
      db.close()
    }
  })

  it('does not read an unrelated SQLite file, and says why', () => {
    const layout = probe('notes.db', (db) => db.exec('CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO note (body) VALUES (\'hi\')'))
    expect(layout).toMatchObject({ generations: [], readable: false, writable: false })
    expect(layout.problems).toEqual(['no OpenCode session tables were recognized'])
  })

  it('does not read 1.x tables that lack a column it needs, and names the column', () => {
    fs.copyFileSync(file('demo.db'), file('old.db'))
    const layout = probe('old.db', (db) => db.exec('ALTER TABLE session DROP COLUMN time_archived'))
    expect(layout.readable).toBe(false)
    expect(layout.problems.join('\n')).toMatch(/table session lacks column\(s\) time_archived/)
  })
})

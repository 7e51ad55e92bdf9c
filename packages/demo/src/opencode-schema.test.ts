import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { ensureRealFixture } from '../../../tools/fixtures.mjs'
import { V1_MIGRATIONS } from '@loupe/domain'
import { generateDemoDb } from './demo-db.js'
import { OPENCODE_1_18_33_SCHEMA } from './opencode-schema.js'

const schemaFile = path.resolve(import.meta.dirname, '../../../tools/opencode-schema/opencode-1.18.33-schema.sql')

const schemaOf = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    const objects = db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name`).all()
    const migrations = (db.prepare('SELECT id FROM migration ORDER BY id').all() as { id: string }[]).map((m) => m.id)
    return { objects, migrations }
  } finally {
    db.close()
  }
}

describe('OPENCODE_1_18_33_SCHEMA', () => {
  it('is the embedded copy of tools/opencode-schema/opencode-1.18.33-schema.sql', () => {
    const statements = fs.readFileSync(schemaFile, 'utf8').split(/;\s*\n/).map((s) => s.trim().replace(/;$/, '')).filter(Boolean)
    expect(OPENCODE_1_18_33_SCHEMA).toEqual(statements)
  })

  it('gives a demo database the same tables, indexes and migrations as a database the real OpenCode made', async () => {
    const real = schemaOf(path.join(await ensureRealFixture(), 'opencode.db'))
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-demo-schema-'))
    try {
      generateDemoDb(path.join(dir, 'demo.db'), { now: Date.UTC(2026, 10, 1), sessions: 2 })
      const demo = schemaOf(path.join(dir, 'demo.db'))
      expect(demo.objects).toEqual(real.objects)
      expect(demo.migrations).toEqual(real.migrations)
      expect(demo.migrations).toEqual([...V1_MIGRATIONS].sort())
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

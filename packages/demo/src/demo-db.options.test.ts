import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoDb } from './demo-db.js'

const NOW = Date.UTC(2026, 8, 15, 18)

/** A digest of every row Loupe or OpenCode would read, independent of page layout. */
function digest(file: string, tables = ['project', 'session', 'message', 'part', 'todo', 'event_sequence', 'event']): string {
  const db = new Database(file, { readonly: true })
  const hash = crypto.createHash('sha256')
  try {
    for (const table of tables) for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).iterate()) hash.update(JSON.stringify(row))
  } finally {
    db.close()
  }
  return hash.digest('hex')
}

describe('generateDemoDb options', () => {
  let dir: string
  const file = (name: string) => path.join(dir, name)
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-demo-options-'))
  })
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('writes the same rows for the same seed and now, and different ones for another seed', () => {
    generateDemoDb(file('a.db'), { now: NOW, seed: 11, sessions: 6 })
    generateDemoDb(file('b.db'), { now: NOW, seed: 11, sessions: 6 })
    generateDemoDb(file('c.db'), { now: NOW, seed: 12, sessions: 6 })
    expect(digest(file('a.db'))).toBe(digest(file('b.db')))
    expect(digest(file('a.db'))).not.toBe(digest(file('c.db')))
  })

  it('keeps every row but the log when events is false', () => {
    const withEvents = generateDemoDb(file('events.db'), { now: NOW, seed: 5, sessions: 5 })
    const without = generateDemoDb(file('no-events.db'), { now: NOW, seed: 5, sessions: 5, events: false })
    expect(without).toMatchObject({ sessions: withEvents.sessions, parts: withEvents.parts, events: 0 })
    expect(without.bytes).toBeLessThan(withEvents.bytes)
    const rows = ['project', 'session', 'message', 'part', 'todo']
    expect(digest(file('no-events.db'), rows)).toBe(digest(file('events.db'), rows))
    const db = new Database(file('no-events.db'), { readonly: true })
    expect(db.prepare('SELECT count(*) AS n FROM event_sequence').get()).toEqual({ n: 0 })
    db.close()
  })

  it('keeps adding sessions until targetParts is reached', () => {
    const made = generateDemoDb(file('target.db'), { now: NOW, seed: 2, targetParts: 1_500 })
    expect(made.parts).toBeGreaterThanOrEqual(1_500)
    expect(made.parts).toBeLessThan(1_500 + 400)
  })
})

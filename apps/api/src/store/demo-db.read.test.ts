import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoDb } from '@loupe/demo'
import { materializeDirectories, startRealOpenCode, type RealOpenCode } from '../../test/real-opencode.js'
import { openOpenCode, type OpenCodeHandle } from './open-opencode.js'
import type { OpenCodeStore } from './store.js'

// Slow: starts the real OpenCode 1.18.33 twice (about 10 s). It is the proof that the demo
// database is OpenCode's own format, so it runs in `npm test` like everything else.

const NOW = Date.UTC(2026, 10, 20, 9, 30)

interface SessionRow {
  id: string
  directory: string
  parent_id: string | null
  time_archived: number | null
}

describe('generateDemoDb, read back by the real OpenCode 1.18.33 (slow)', () => {
  let dir: string
  let file: string
  let rows: SessionRow[]
  let handle: OpenCodeHandle
  let store: OpenCodeStore
  let original: RealOpenCode
  let replica: RealOpenCode
  const servers: RealOpenCode[] = []

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-demo-real-'))
    file = path.join(dir, 'demo.db')
    generateDemoDb(file, { now: NOW, seed: 7, sessions: 10, home: path.join(dir, 'home') })
    materializeDirectories(file)
    const db = new Database(file, { readonly: true })
    rows = db.prepare('SELECT id, directory, parent_id, time_archived FROM session ORDER BY id').all() as SessionRow[]
    db.close()
    handle = openOpenCode(file)
    const v1 = handle.stores.byGeneration.v1
    if (!v1) throw new Error('the demo database has no 1.x generation')
    store = v1
    // OpenCode writes to the file it serves (project rows), so it gets a copy; the replica starts empty.
    fs.copyFileSync(file, path.join(dir, 'served.db'))
    const started = await Promise.allSettled([startRealOpenCode(path.join(dir, 'served.db')), startRealOpenCode(path.join(dir, 'replica.db'))])
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value)
    const failed = started.find((s) => s.status === 'rejected')
    if (failed) throw failed.reason
    ;[original, replica] = servers as [RealOpenCode, RealOpenCode]
  }, 180_000)

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    handle?.db.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('lists every generated session under its directory, children under their parent', async () => {
    expect(rows.length).toBeGreaterThanOrEqual(11)
    const byDirectory = new Map<string, Set<string>>()
    for (const row of rows) {
      if (!byDirectory.has(row.directory)) {
        const listed = (await original.api.get('/session', { directory: row.directory })) as { id: string }[]
        byDirectory.set(row.directory, new Set(listed.map((s) => s.id)))
      }
      expect(byDirectory.get(row.directory), row.id).toContain(row.id)
      if (row.parent_id) {
        const children = (await original.api.get(`/session/${row.parent_id}/children`, { directory: row.directory })) as { id: string }[]
        expect(children.map((c) => c.id)).toContain(row.id)
      }
    }
    const archived = (await original.api.get('/experimental/session?archived=true&limit=1000')) as { id: string; time: { archived?: number } }[]
    const expectedArchived = rows.filter((r) => r.time_archived !== null)
    expect(expectedArchived.length).toBeGreaterThan(0)
    for (const row of expectedArchived) expect(archived.find((s) => s.id === row.id)?.time.archived).toBe(row.time_archived)
  }, 60_000)

  it("returns every message with its parts exactly as Loupe's 1.x store reads them", async () => {
    let messages = 0
    for (const row of rows) {
      const served = (await original.api.get(`/session/${row.id}/message`, { directory: row.directory })) as { info: { id: string } }[]
      const ids = served.map((m) => m.info.id)
      const native = store.loadMessages(handle.db, row.id, ids).map((m) => (m.storage === 'v1' ? { info: m.info, parts: m.parts } : m))
      expect(served, row.id).toEqual(native)
      const count = handle.db.getSql<{ n: number }>('SELECT count(*) AS n FROM message WHERE session_id = ?', [row.id])?.n
      expect(served).toHaveLength(count ?? -1)
      messages += served.length
    }
    expect(messages).toBeGreaterThan(50)
  }, 60_000)

  it('replays each session log into an empty OpenCode and gets the same session, messages and parts', async () => {
    const db = new Database(file, { readonly: true })
    const events = db.prepare('SELECT id, seq, type, data FROM event WHERE aggregate_id = ? ORDER BY seq')
    try {
      for (const row of rows) {
        const log = (events.all(row.id) as { id: string; seq: number; type: string; data: string }[])
          .map((e) => ({ id: e.id, aggregateID: row.id, seq: e.seq, type: e.type, data: JSON.parse(e.data) as unknown }))
        expect(log.length, row.id).toBeGreaterThan(3)
        // /sync/replay validates every payload against OpenCode's schemas before projecting it.
        for (let i = 0; i < log.length; i += 40) {
          await replica.api.post('/sync/replay', { directory: row.directory, events: log.slice(i, i + 40) }, { directory: row.directory })
        }
        const query = { directory: row.directory }
        expect(await replica.api.get(`/session/${row.id}`, query)).toEqual(await original.api.get(`/session/${row.id}`, query))
        expect(await replica.api.get(`/session/${row.id}/message`, query)).toEqual(await original.api.get(`/session/${row.id}/message`, query))
      }
    } finally {
      db.close()
    }
  }, 120_000)
})

describe('generateDemoDb, opened by Loupe', () => {
  it('replaces an existing file and opens as a writable 1.x database in Loupe', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-demo-open-'))
    const file = (name: string) => path.join(dir, name)
    try {
      fs.writeFileSync(file('replace.db'), 'not a database')
      generateDemoDb(file('replace.db'), { now: NOW, sessions: 3 })
      const handle = openOpenCode(file('replace.db'))
      try {
        expect(handle.layout).toMatchObject({ readable: true, writable: true, problems: [] })
        expect(handle.layout.generations.map((g) => g.generation)).toEqual(['v1'])
        expect(handle.layout.opencodeVersions).toEqual(['1.18.33'])
      } finally {
        handle.db.close()
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

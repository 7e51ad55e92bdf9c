import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoDb, type DemoSummary } from './demo-db.js'
import { decodeIdTime } from './opencode-ids.js'

const NOW = Date.UTC(2026, 10, 20, 9, 30)
const ID = /^(ses|msg|prt|evt)_[0-9a-f]{12}[0-9A-Za-z]{14}$/

type Row = Record<string, unknown>
const json = (text: unknown) => JSON.parse(String(text)) as Record<string, any>

describe('generateDemoDb (OpenCode 1.18.33 format)', () => {
  let dir: string
  let db: Database.Database
  let summary: DemoSummary
  const all = (sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as Row[]

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-demo-format-'))
    summary = generateDemoDb(path.join(dir, 'demo.db'), { now: NOW, seed: 3, sessions: 24 })
    db = new Database(path.join(dir, 'demo.db'), { readonly: true })
  })
  afterAll(() => {
    db?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('reports what it wrote and leaves a healthy WAL-mode file', () => {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
    expect(summary).toMatchObject({ sessions: count('session'), messages: count('message'), parts: count('part'), events: count('event') })
    expect(summary.bytes).toBe(fs.statSync(path.join(dir, 'demo.db')).size)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(db.pragma('foreign_key_check')).toEqual([])
    expect(fs.existsSync(path.join(dir, 'demo.db.partial'))).toBe(false)
  })

  it('writes well-formed ids: sessions descend with time, messages, parts and events ascend', () => {
    for (const s of all('SELECT id, time_created FROM session')) {
      expect(s.id).toMatch(ID)
      expect(decodeIdTime(String(s.id), NOW)).toBe(s.time_created)
    }
    for (const m of all('SELECT id, time_created, data FROM message')) {
      expect(decodeIdTime(String(m.id), NOW)).toBe(m.time_created)
      expect(json(m.data).time.created).toBe(m.time_created)
    }
    for (const p of all('SELECT id, time_created, time_updated FROM part')) {
      expect(p.id).toMatch(ID)
      expect(decodeIdTime(String(p.id), NOW)).toBe(p.time_created)
      expect(Number(p.time_updated)).toBeGreaterThanOrEqual(Number(p.time_created))
    }
    const maxTime = db.prepare('SELECT max(t) AS t FROM (SELECT max(time_updated) t FROM session UNION SELECT max(time_archived) FROM session UNION SELECT max(time_updated) FROM part)').get() as { t: number }
    expect(maxTime.t).toBeLessThanOrEqual(NOW)
  })

  it('orders parts by creation within each message and keeps message times consistent', () => {
    for (const m of all('SELECT id FROM message')) {
      const parts = all('SELECT id, time_created FROM part WHERE message_id = ? ORDER BY id', m.id)
      const times = parts.map((p) => Number(p.time_created))
      expect(times).toEqual([...times].sort((a, b) => a - b))
    }
    const assistants = all(`SELECT data FROM message WHERE json_extract(data, '$.role') = 'assistant'`).map((m) => json(m.data))
    for (const a of assistants) expect(a.time.completed).toBeGreaterThanOrEqual(a.time.created)
  })

  it('sums step-finish parts into the session totals, as the projector does', () => {
    for (const s of all('SELECT * FROM session')) {
      const steps = all(`SELECT data FROM part WHERE session_id = ? AND json_extract(data, '$.type') = 'step-finish'`, s.id).map((p) => json(p.data))
      const sum = (f: (t: Record<string, any>) => number) => steps.reduce((n, p) => n + f(p.tokens), 0)
      expect(s.tokens_input).toBe(sum((t) => t.input))
      expect(s.tokens_output).toBe(sum((t) => t.output))
      expect(s.tokens_reasoning).toBe(sum((t) => t.reasoning))
      expect(s.tokens_cache_read).toBe(sum((t) => t.cache.read))
      expect(s.tokens_cache_write).toBe(sum((t) => t.cache.write))
      expect(Number(s.cost)).toBeCloseTo(steps.reduce((n, p) => n + p.cost, 0), 9)
    }
  })

  it('keeps a contiguous event log whose last events equal the stored rows', () => {
    for (const s of all('SELECT s.*, q.seq AS last FROM session s JOIN event_sequence q ON q.aggregate_id = s.id')) {
      const events = all('SELECT id, seq, type, data FROM event WHERE aggregate_id = ? ORDER BY seq', s.id)
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i))
      expect(s.last).toBe(events.length - 1)
      expect(events.map((e) => e.id)).toEqual(events.map((e) => String(e.id)).sort())
      expect(events[0]?.type).toBe('session.created.1')
      const info = json(events.filter((e) => String(e.type).startsWith('session.')).at(-1)?.data).info
      expect(info).toMatchObject({ id: s.id, title: s.title, cost: s.cost, tokens: { input: s.tokens_input, output: s.tokens_output } })
      expect(info.time).toEqual({ created: s.time_created, updated: s.time_updated, ...(s.time_archived ? { archived: s.time_archived } : {}) })
      const lastPart = new Map<string, Record<string, any>>()
      const lastMessage = new Map<string, Record<string, any>>()
      for (const e of events) {
        const d = json(e.data)
        if (e.type === 'message.part.updated.1') lastPart.set(d.part.id, d.part)
        if (e.type === 'message.updated.1') lastMessage.set(d.info.id, d.info)
      }
      for (const p of all('SELECT id, message_id, data FROM part WHERE session_id = ?', s.id)) {
        expect(lastPart.get(String(p.id))).toEqual({ ...json(p.data), id: p.id, sessionID: s.id, messageID: p.message_id })
      }
      for (const m of all('SELECT id, data FROM message WHERE session_id = ?', s.id)) {
        expect(lastMessage.get(String(m.id))).toEqual({ ...json(m.data), id: m.id, sessionID: s.id })
      }
    }
  })

  it('stores the intermediate states: tool pending → running → end, reasoning and text start empty', () => {
    const states = new Map<string, string[]>()
    const texts = new Map<string, string[]>()
    for (const e of all(`SELECT data FROM event WHERE type = 'message.part.updated.1' ORDER BY id`)) {
      const part = json(e.data).part
      if (part.type === 'tool') states.set(part.id, [...(states.get(part.id) ?? []), part.state.status])
      if (part.type === 'reasoning' || part.type === 'text') texts.set(part.id, [...(texts.get(part.id) ?? []), part.text])
    }
    for (const list of states.values()) {
      expect(list[0]).toBe('pending')
      expect(list[1]).toBe('running')
      expect(['completed', 'error']).toContain(list.at(-1))
    }
    const streamed = [...texts.values()].filter((l) => l.length === 2)
    expect(streamed.length).toBeGreaterThan(20)
    for (const list of streamed) expect(list[0]).toBe('')
  })

  it('covers every part and tool shape the demo promises', () => {
    const types = all(`SELECT DISTINCT json_extract(data, '$.type') AS t FROM part`).map((r) => r.t)
    expect(types).toEqual(expect.arrayContaining(['step-start', 'reasoning', 'text', 'tool', 'step-finish', 'patch', 'file', 'compaction']))
    const tools = all(`SELECT DISTINCT json_extract(data, '$.tool') || ':' || json_extract(data, '$.state.status') AS t FROM part WHERE json_extract(data, '$.type') = 'tool'`).map((r) => r.t)
    for (const tool of ['bash', 'read', 'glob', 'grep', 'write', 'edit', 'todowrite', 'task']) expect(tools).toContain(`${tool}:completed`)
    expect(tools).toEqual(expect.arrayContaining(['read:error', 'bash:error']))
    const pasted = all(`SELECT data FROM part WHERE json_extract(data, '$.type') = 'file' AND json_extract(data, '$.url') LIKE 'data:image/png;base64,%'`)
    expect(pasted.length).toBeGreaterThan(0)
    expect(Buffer.from(String(json(pasted[0]?.data).url).split(',')[1] ?? '', 'base64').subarray(1, 4).toString()).toBe('PNG')
    expect(all(`SELECT 1 FROM message WHERE json_extract(data, '$.summary') = 1 AND json_extract(data, '$.mode') = 'compaction'`).length).toBeGreaterThan(0)
    expect(all(`SELECT 1 FROM message WHERE json_extract(data, '$.error.name') = 'MessageAbortedError'`).length).toBeGreaterThan(0)
    expect(all('SELECT 1 FROM todo').length).toBeGreaterThan(0)
  })

  it('gives each image a read attached its own part identity', () => {
    const reads = all(`SELECT id, message_id, session_id, data FROM part WHERE json_extract(data, '$.state.attachments') IS NOT NULL`)
    expect(reads.length).toBeGreaterThan(0)
    for (const r of reads) {
      const [attachment] = json(r.data).state.attachments
      expect(attachment).toMatchObject({ type: 'file', mime: 'image/png', sessionID: r.session_id, messageID: r.message_id })
      expect(attachment.id).toMatch(ID)
      expect(attachment.url).toMatch(/^data:image\/png;base64,iVBOR/)
    }
  })

  it('links subagent sessions both ways and spreads sessions over projects, global and archived', () => {
    const children = all('SELECT id, parent_id, title, permission FROM session WHERE parent_id IS NOT NULL')
    expect(children.length).toBeGreaterThan(0)
    for (const c of children) {
      expect(c.title).toMatch(/\(@explore subagent\)$/)
      const task = all(`SELECT data FROM part WHERE session_id = ? AND json_extract(data, '$.tool') = 'task'`, c.parent_id).map((p) => json(p.data))
      expect(task.map((t) => t.state.metadata.sessionId)).toContain(c.id)
    }
    expect(all('SELECT DISTINCT project_id FROM session').length).toBeGreaterThanOrEqual(4)
    expect(all(`SELECT 1 FROM session WHERE project_id = 'global' AND path = substr(directory, 2)`).length).toBeGreaterThan(0)
    expect(all('SELECT 1 FROM session WHERE time_archived IS NOT NULL').length).toBeGreaterThan(0)
    expect(all(`SELECT id FROM project WHERE id != 'global'`).every((p) => /^[0-9a-f]{40}$/.test(String(p.id)))).toBe(true)
  })
})

import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { partSearchFields } from '@loupe/domain'
import { tempDir } from '../../test/harness.js'
import { addV1Message, fixtureWithV1Session } from '../../test/search-fixtures.js'
import { parseObject } from './parse-object.js'
import { openOpenCode } from './open-opencode.js'
import { NO_SCOPE, type DocInput } from './index-source.js'
import { createV1IndexSource } from './index-source-v1.store.js'

/** Part data that a lean read could get wrong: types, shapes, escapes, numbers, sizes. */
const HOSTILE_PARTS: Array<Record<string, unknown>> = [
  { type: 'text', text: 42 },
  { type: 'text', text: { nested: 'not a string' } },
  { type: 'text', text: ['a', 'b'] },
  { type: 'text', text: 'marker \uE000 forged \uE001 and "quotes", \\ slashes, \u0000 nul, emoji 😀, ünïcödé' },
  { type: 'reasoning', text: 'thinking about PR1137\n\ttabs' },
  { type: 'subtask', description: 'find the bug', prompt: 'look in parser.ts', agent: 'general' },
  { type: 'subtask', description: 7, prompt: null },
  { type: 'tool', tool: 'bash', state: 'not an object' },
  { type: 'tool', tool: 'bash', state: ['an', 'array'] },
  { type: 'tool', tool: 12, state: { status: 'error', input: { command: 'make' }, error: 'exit 2: missing target' } },
  { type: 'tool', tool: 'edit', state: { status: 'error', input: {}, error: { message: 'file changed on disk', code: 7 } } },
  { type: 'tool', tool: 'edit', state: { status: 'error', input: {}, error: { message: { deep: 1 } } } },
  {
    type: 'tool', tool: 'write',
    state: {
      status: 'completed', title: 'src/a.ts', output: 'wrote 3 lines', metadata: { diff: 'x'.repeat(2000) },
      input: { '2': 'numeric key first', filePath: '/srv/a.ts', n: 1.5, big: 1e300, neg: -0, yes: true, no: false, nil: null, list: [1, 'two', { three: 'deep value' }], image: `data:image/png;base64,${'A'.repeat(400)}` },
    },
  },
  { type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: 'x' }, output: 'B'.repeat(70_000), title: 'large output' } },
  { type: 'tool', tool: 'read', state: { status: 'completed', input: 'a string input', output: 5 } },
  { type: 'file', mime: 'image/png', url: `data:image/png;base64,${'C'.repeat(80_000)}` },
  { type: 'step-finish', reason: 'stop', tokens: { input: 1 } },
  { type: 'patch', hash: 'abc', files: ['a.ts'] },
  { text: 'no type at all' },
  { type: ['text'], text: 'type is not a string' },
]

describe('1.x part rows as the index reads them', () => {
  it('give every part the same search document as the whole row and its message would', async () => {
    const dir = tempDir()
    const { file, raw, time, sessionID } = await fixtureWithV1Session(dir, 'Hostile parts')
    addV1Message(raw, { sessionID, role: 'assistant', time, parts: HOSTILE_PARTS })
    addV1Message(raw, { sessionID, role: 'user', time: time + 100, parts: [{ type: 'text', text: 'a user asks' }] })
    // Rows OpenCode would never write: not JSON, JSON5 (SQLite reads it, JSON.parse does not), not an object.
    const last = raw.prepare(`SELECT id, message_id FROM part WHERE session_id = ? ORDER BY rowid DESC LIMIT 1`).get(sessionID) as { id: string; message_id: string }
    const insert = raw.prepare(`INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`)
    for (const [i, data] of [`{"type":"text","text":"cut off`, `{type:'text',text:'json5'}`, `["text"]`, `"text"`].entries()) {
      insert.run(`${last.id}z${i}`, last.message_id, sessionID, time + 200, time + 200, data)
    }
    const whole = new Map((raw.prepare(`SELECT rowid AS rid, data FROM part`).all() as Array<{ rid: number; data: string }>).map((r) => [r.rid, r.data]))
    const roles = new Map((raw.prepare(`SELECT id, data FROM message`).all() as Array<{ id: string; data: string }>).map((m) => [m.id, String(JSON.parse(m.data).role)]))
    raw.close()

    const opencode = openOpenCode(file)
    const source = createV1IndexSource(opencode.layout.generations[0]!, opencode.layout)
    const rows = source.chunk(opencode.db, 0, 1e9)
    let documents = 0
    for (const row of rows) {
      const part = parseObject(whole.get(row.rid)!)
      const expected = part ? partSearchFields(part, roles.get(row.message_id) ?? 'unknown') : null
      const docs: DocInput[] = []
      source.docs(row, NO_SCOPE, (doc) => docs.push(doc))
      expect({ rid: row.rid, fields: docs[0]?.fields ?? null, more: docs.length > 1 }).toEqual({ rid: row.rid, fields: expected, more: false })
      if (expected) documents++
    }
    // The hostile parts that do make documents, and the fixture's own.
    expect(documents).toBeGreaterThan(HOSTILE_PARTS.length)
    expect(rows.length).toBe(whole.size)
    opencode.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

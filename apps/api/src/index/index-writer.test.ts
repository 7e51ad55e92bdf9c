import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/harness.js'
import { keyBase, LAST_KEY_BASE, MAX_ID_TIME, SLOTS } from './doc-id.js'
import { openIndexDb } from './index-db.js'
import type { DocInput } from '../store/index-source.js'
import { createIndexWriter } from './index-writer.js'

const doc = (i: number, time: number): DocInput => ({
  gen: 'v1', sessionID: 'ses_clamp', messageID: 'msg_clamp', partKey: `prt_${i}`, time, srcUpdated: time, projectID: 'p', directory: '/d',
  fields: { kind: 'text', tool: null, title: '', body: `far future ${i}`, input: '', output: '' },
})

describe('index writer ids', () => {
  it('keeps ids unique and non-negative when times past 2039 pile into the last millisecond ids can hold', () => {
    const dir = tempDir()
    const db = openIndexDb(path.join(dir, 'index.sqlite'), { path: '/a/opencode.db', identity: { dev: 1, ino: 2 } })
    const writer = createIndexWriter(db)
    // Microseconds mistaken for milliseconds: every one clamps to MAX_ID_TIME, three buckets' worth.
    const count = 3 * SLOTS + 5
    const outcome = db.write(() => {
      writer.begin()
      for (let i = 0; i < count; i++) writer.upsert(doc(i, Date.UTC(2026, 10, 29) * 1000 + i), { fresh: true })
      writer.flush()
    })
    expect(outcome.ok).toBe(true)
    const ids = db.allSql<{ id: number }>(`SELECT id FROM doc`).map((r) => r.id)
    expect(ids).toHaveLength(count)
    expect(new Set(ids).size).toBe(count)
    expect(ids.every((id) => Number.isSafeInteger(id) && id >= 0)).toBe(true)
    // The clamped bucket, the one spill bucket above it, then older buckets below.
    expect(keyBase(Number.MAX_VALUE)).toBe(MAX_ID_TIME * SLOTS)
    expect(LAST_KEY_BASE).toBe((MAX_ID_TIME + 1) * SLOTS)
    expect(db.getSql<{ n: number }>(`SELECT count(*) AS n FROM fts WHERE fts MATCH 'future'`)!.n).toBe(count)
    db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

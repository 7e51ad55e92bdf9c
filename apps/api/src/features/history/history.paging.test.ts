import Database from 'better-sqlite3'
import { encodeCursor } from '@loupe/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { addV1Message, addV1Session, textPart } from '../../../test/search-fixtures.js'
import { CANDIDATE_CAP } from './index-search.js'

const T = TEST_NOW - 3_600_000
type Caller = ReturnType<typeof createCaller>
const key = (h: { messageID: string | null; partID?: string }) => `${h.messageID}/${h.partID}`

async function collect(caller: Caller, input: { query: string; limit: number }, between?: () => void) {
  const keys: string[] = []
  let cursor: string | undefined
  for (let page = 0; page < 100; page++) {
    const answer = await caller.history.search({ ...input, ...(cursor ? { cursor } : {}) })
    keys.push(...answer.hits.map(key))
    if (!answer.cursor) break
    cursor = answer.cursor
    between?.()
  }
  return keys
}

describe('history.search paging', () => {
  let deps: TestDeps
  let caller: Caller
  let db: Database.Database
  let session: string

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    db = new Database(deps.opencode.path)
    session = addV1Session(db, { title: 'Paging', time: T })
    for (let i = 0; i < 30; i++) {
      addV1Message(db, { sessionID: session, role: 'assistant', time: T + i * 1000, parts: [textPart(`quasar note ${i} ${'filler '.repeat(i)}`)] })
    }
    deps.searchIndex.runUntilIdle()
  })
  afterAll(() => {
    db.close()
    deps.cleanup()
  })

  it('pages through every hit once, in the order of a single page', async () => {
    const whole = (await caller.history.search({ query: 'quasar', limit: 100 })).hits.map(key)
    expect(whole).toHaveLength(30)
    const paged = await collect(caller, { query: 'quasar', limit: 4 })
    expect(paged).toEqual(whole)
  })

  it('stays stable while new matching turns are indexed between pages', async () => {
    const before = (await caller.history.search({ query: 'quasar', limit: 100 })).hits.map(key)
    let added = 0
    const paged = await collect(caller, { query: 'quasar', limit: 7 }, () => {
      addV1Message(db, { sessionID: session, role: 'assistant', time: TEST_NOW + added * 1000, parts: [textPart(`quasar late ${added++}`)] })
      deps.searchIndex.runUntilIdle()
    })
    expect(added).toBeGreaterThan(2)
    expect(new Set(paged).size).toBe(paged.length)
    expect(paged).toEqual(before)
    const after = await caller.history.search({ query: 'quasar', limit: 100 })
    expect(after.hits).toHaveLength(30 + added)
  })

  it('re-ranks under the cursor horizon when the snapshot was evicted, without duplicates', async () => {
    const first = await caller.history.search({ query: 'quasar note', limit: 5 })
    deps.searchIndex.snapshots.clear()
    addV1Message(db, { sessionID: session, role: 'assistant', time: TEST_NOW + 99_000, parts: [textPart('quasar note newest')] })
    deps.searchIndex.runUntilIdle()
    const second = await caller.history.search({ query: 'quasar note', limit: 100, cursor: first.cursor! })
    const keys = [...first.hits, ...second.hits].map(key)
    expect(new Set(keys).size).toBe(keys.length)
    expect(second.hits.some((h) => h.snippet.some((s) => s.text.includes('newest')))).toBe(false)
    expect(keys).toHaveLength(30)
  })

  it('refuses a cursor issued under an older index schema, whose ids meant something else', async () => {
    const first = await caller.history.search({ query: 'quasar note', limit: 5 })
    const { k, b, p } = JSON.parse(Buffer.from(first.cursor!, 'base64url').toString('utf8')) as { k: string; b: string; p: { v: number } }
    const old = encodeCursor(k, b, { ...p, v: p.v - 1 })
    await expect(caller.history.search({ query: 'quasar note', limit: 5, cursor: old })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/older search index/) })
    // The same cursor as issued still pages.
    expect((await caller.history.search({ query: 'quasar note', limit: 5, cursor: first.cursor! })).hits).toHaveLength(5)
  })

  it('drops a hit pruned between pages instead of repeating or shifting others', async () => {
    const first = await caller.history.search({ query: 'quasar note', limit: 3 })
    const peek = await caller.history.search({ query: 'quasar note', limit: 1, cursor: first.cursor! })
    const victim = peek.hits[0]!
    db.prepare(`DELETE FROM part WHERE id = ?`).run(victim.partID)
    deps.events.emit('pruned', { sessionID: victim.sessionID, messageID: victim.messageID!, revision: 'x', storage: 'v1' })
    const second = await caller.history.search({ query: 'quasar note', limit: 100, cursor: first.cursor! })
    expect(second.hits.map(key)).not.toContain(key(victim))
    expect(second.hits).toHaveLength(first.total! - first.hits.length - 1)
  })

  it('caps the ranked candidates of a very common word at the newest ones and says so', async () => {
    const small = await caller.history.search({ query: 'quasar', limit: 5 })
    expect(small.truncated).toBe(false)
    const insert = db.transaction(() => {
      for (let i = 0; i < CANDIDATE_CAP + 10; i++) {
        addV1Message(db, { sessionID: session, role: 'assistant', time: T - 10_000_000 + i * 1000, parts: [textPart(`ubiquitous ${i}`)] })
      }
    })
    insert()
    deps.searchIndex.runUntilIdle()
    const common = await caller.history.search({ query: 'ubiquitous', limit: 5 })
    expect(common.truncated).toBe(true)
    expect(common.total).toBe(CANDIDATE_CAP)
    // The oldest matches fell outside the cap: the ten first written are not among the candidates.
    const ranked: string[] = []
    for (let cursor: string | undefined, page = 0; page < 30; page++) {
      const answer = await caller.history.search({ query: 'ubiquitous', limit: 100, ...(cursor ? { cursor } : {}) })
      ranked.push(...answer.hits.map((h) => h.snippet.map((seg) => seg.text).join('')))
      if (!answer.cursor) break
      cursor = answer.cursor
    }
    expect(ranked).toHaveLength(CANDIDATE_CAP)
    const numbers = new Set(ranked.map((text) => Number(/ubiquitous (\d+)/.exec(text)![1])))
    expect(Math.min(...numbers)).toBe(10)
    expect(numbers.has(CANDIDATE_CAP + 9)).toBe(true)
    const oldest = await caller.history.search({ query: 'ubiquitous', until: T - 10_000_000 + 9_000, limit: 20 })
    expect(oldest.hits).toHaveLength(10)
    expect(oldest.truncated).toBe(false)
  }, 120_000)
})

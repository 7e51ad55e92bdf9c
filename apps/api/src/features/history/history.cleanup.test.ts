import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { addV1Message, addV1Session, reasoningPart, textPart, toolPart } from '../../../test/search-fixtures.js'

type Caller = ReturnType<typeof createCaller>

describe('history.candidates and clean-up from the results', () => {
  let deps: TestDeps
  let caller: Caller
  let unfinished: string
  let userOnly: string

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    const db = new Database(deps.opencode.path)
    const session = addV1Session(db, { title: 'Cleanup seeds', time: Date.now() - 60_000 })
    userOnly = addV1Message(db, { sessionID: session, role: 'user', time: Date.now() - 50_000, parts: [textPart('please grep for the quetzal config')] }).messageID
    unfinished = addV1Message(db, {
      sessionID: session, role: 'assistant', time: Date.now() - 40_000, completed: false,
      parts: [reasoningPart('Looking for quetzal.'), toolPart('grep', { pattern: 'quetzal' }, 'src/quetzal.ts:1')],
    }).messageID
    addV1Message(db, {
      sessionID: session, role: 'assistant', time: Date.now() - 30_000,
      parts: [reasoningPart('The quetzal config is in src.'), toolPart('read', { filePath: '/srv/quetzal.json' }, '{"quetzal": true}'), textPart('Found the quetzal config.')],
    })
    db.close()
    deps.searchIndex.runUntilIdle()
  })
  afterAll(() => deps.cleanup())

  it('refuses while the index is not ready', async () => {
    const fresh = await createTestDeps((await realFixture()).db)
    await expect(createCaller({ deps: fresh }).history.candidates({ query: 'stdin' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    fresh.cleanup()
  })

  it('lists finished assistant messages with prunable parts, with the revisions pruning previews', async () => {
    const answer = await caller.history.candidates({ query: 'quetzal' })
    expect(answer.totals).toMatchObject({ sessions: 1, messages: 1, tools: 1, reasoning: 1 })
    expect(answer.sessions[0]).toMatchObject({ storage: 'v1', title: 'Cleanup seeds' })
    // Sessions of one title are told apart by where they ran.
    expect(answer.sessions[0]!.directory).toBe('/srv/app')
    const [candidate] = answer.sessions[0]!.candidates
    const preview = await caller.pruning.preview({ sessionID: answer.sessions[0]!.sessionID, storage: 'v1', messageID: candidate!.messageID })
    expect(preview).toMatchObject({ revision: candidate!.revision })
    expect(answer.sessions.flatMap((s) => s.candidates.map((c) => c.messageID))).not.toContain(userOnly)
    expect(answer.skipped.reduce((n, s) => n + s.count, 0)).toBe(1)
    expect(answer.sessions[0]!.candidates.map((c) => c.messageID)).not.toContain(unfinished)
  })

  it('cleans up everything matching through pruneBatch, and the index drops the pruned parts at once', async () => {
    const query = 'readFileSync'
    const before = await caller.history.search({ query, limit: 100 })
    expect(before.hits.some((h) => h.kind === 'tool')).toBe(true)
    const plan = await caller.history.candidates({ query })
    expect(plan.totals.messages).toBeGreaterThan(0)
    let removed = 0
    for (const session of plan.sessions) {
      for (let i = 0; i < session.candidates.length; i += 16) {
        const slice = session.candidates.slice(i, i + 16).map((c) => ({ messageID: c.messageID, revision: c.revision }))
        const { results } = await caller.pruning.pruneBatch({ sessionID: session.sessionID, storage: session.storage, candidates: slice })
        for (const r of results) {
          expect(r.result).toMatchObject({ status: 'pruned' })
          if (r.result.status === 'pruned') removed += r.result.removedCount
        }
      }
    }
    expect(removed).toBe(plan.totals.tools + plan.totals.reasoning)
    const after = await caller.history.search({ query, limit: 100 })
    const pruned = new Set(plan.sessions.flatMap((s) => s.candidates.map((c) => c.messageID)))
    expect(after.hits.filter((h) => pruned.has(h.messageID!) && (h.kind === 'tool' || h.kind === 'reasoning'))).toEqual([])
    const again = await caller.history.candidates({ query })
    expect(again.totals.messages).toBe(0)
    expect(again.alreadyClean).toBeGreaterThanOrEqual(0)
  })

  it('scopes candidates like the search (a session, a kind)', async () => {
    const scoped = await caller.history.candidates({ query: 'quetzal', kinds: ['text'] })
    expect(scoped.totals.messages).toBe(1)
    const none = await caller.history.candidates({ query: 'quetzal', kinds: ['user'] })
    expect(none.totals.messages).toBe(0)
  })
})

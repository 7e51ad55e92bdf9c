import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { fileHolders } from '../../opencode/file-holders.js'
import { waitFor } from '../../../test/fixtures/pruning/markers.js'
import { addV1Message, addV1Session, reasoningPart, textPart, toolPart } from '../../../test/search-fixtures.js'

type Caller = ReturnType<typeof createCaller>

describe('history.candidates and clean-up from the results', () => {
  let deps: TestDeps
  let caller: Caller
  let unfinished: string
  let userOnly: string
  let mixed: { sessionID: string; messageID: string }

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
    // One matching tool call beside one that does not match: a clean-up removes the first alone.
    const other = addV1Session(db, { title: 'Mixed tools', time: Date.now() - 20_000 })
    mixed = {
      sessionID: other,
      messageID: addV1Message(db, {
        sessionID: other, role: 'assistant', time: Date.now() - 10_000,
        parts: [toolPart('todowrite', { todos: 'ocelot list' }, 'ocelot saved'), toolPart('bash', { command: 'node -e 1' }, 'ok'), reasoningPart('Now the ocelot is done.')],
      }).messageID,
    }
    db.close()
    deps.searchIndex.runUntilIdle()
  })
  afterAll(() => deps.cleanup())

  it('leaves out, with the reason, sessions OpenCode may be running: a process holds the file and no server of it answers', async () => {
    const fd = fs.openSync(deps.opencode.path, 'r')
    const holder = spawn('sleep', ['60'], { stdio: [fd, 'ignore', 'ignore'] })
    fs.closeSync(fd)
    try {
      await waitFor(() => fileHolders(deps.opencode.path).includes(holder.pid!), 5_000, 'the holder')
      const answer = await caller.history.candidates({ query: 'quetzal' })
      expect(answer.sessions).toEqual([])
      expect(answer.totals).toMatchObject({ sessions: 0, messages: 0, tools: 0, reasoning: 0, bytes: 0 })
      expect(answer.locked).toEqual([expect.objectContaining({ title: 'Cleanup seeds', messages: 1, lock: expect.objectContaining({ cause: 'no_answer' }) })])
    } finally {
      holder.kill('SIGKILL')
    }
    await waitFor(() => !fileHolders(deps.opencode.path).includes(holder.pid!), 5_000, 'the holder gone')
    expect((await caller.history.candidates({ query: 'quetzal' })).locked).toEqual([])
  })

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
    // The matching reasoning and tool call, by their places in the message; its text stays.
    expect(candidate!.indexes).toEqual([0, 1])
    const preview = await caller.pruning.preview({ sessionID: answer.sessions[0]!.sessionID, storage: 'v1', messageID: candidate!.messageID })
    expect(preview).toMatchObject({ revision: candidate!.revision })
    expect(answer.sessions.flatMap((s) => s.candidates.map((c) => c.messageID))).not.toContain(userOnly)
    expect(answer.skipped.reduce((n, s) => n + s.count, 0)).toBe(1)
    expect(answer.sessions[0]!.candidates.map((c) => c.messageID)).not.toContain(unfinished)
    // The total before anything starts: every message with a matching tool call or reasoning, the unfinished one too.
    expect(answer.matched).toEqual({ messages: 2, atLeast: false })
    expect(answer.truncated).toBe(false)
  })

  it('cleans up everything matching, part by part, and the index drops the pruned parts at once', async () => {
    const query = 'readFileSync'
    const before = await caller.history.search({ query, limit: 100 })
    expect(before.hits.some((h) => h.kind === 'tool')).toBe(true)
    const plan = await caller.history.candidates({ query })
    expect(plan.totals.messages).toBeGreaterThan(0)
    let removed = 0
    for (const session of plan.sessions) {
      for (const c of session.candidates) {
        const result = await caller.pruning.prune({ sessionID: session.sessionID, storage: session.storage, messageID: c.messageID, revision: c.revision, indexes: c.indexes! })
        expect(result).toMatchObject({ status: 'pruned' })
        if (result.status === 'pruned') removed += result.removedCount
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
    const reasoning = await caller.history.candidates({ query: 'quetzal', kinds: ['reasoning'] })
    expect(reasoning.totals).toMatchObject({ messages: 1, tools: 0, reasoning: 1 })
    expect(reasoning.sessions[0]!.candidates[0]!.indexes).toEqual([0])
    // A match in a message's text removes nothing: not its tool call, not its reasoning.
    const text = await caller.history.candidates({ query: 'quetzal', kinds: ['text'] })
    expect(text.totals.messages).toBe(0)
    const none = await caller.history.candidates({ query: 'quetzal', kinds: ['user'] })
    expect(none.totals.messages).toBe(0)
  })

  it('removes only the matching parts: a tool call the filters left out stays', async () => {
    const plan = await caller.history.candidates({ query: 'ocelot', kinds: ['tool'] })
    expect(plan.totals).toMatchObject({ messages: 1, tools: 1, reasoning: 0 })
    const [candidate] = plan.sessions[0]!.candidates
    expect(candidate).toMatchObject({ messageID: mixed.messageID, indexes: [0], tools: ['todowrite'] })
    const result = await caller.pruning.prune({ sessionID: mixed.sessionID, storage: 'v1', messageID: candidate!.messageID, revision: candidate!.revision, indexes: candidate!.indexes! })
    expect(result).toMatchObject({ status: 'pruned', removedCount: 1 })
    const left = await caller.pruning.preview({ sessionID: mixed.sessionID, storage: 'v1', messageID: mixed.messageID })
    expect(left.status === 'preview' && left.parts.map((p) => [p.type, p.tool])).toEqual([['tool', 'bash'], ['reasoning', undefined]])
  })
})

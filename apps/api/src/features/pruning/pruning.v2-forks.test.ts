import type { NativeMessage } from '@loupe/domain'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, type TestDeps } from '../../../test/harness.js'
import { readMessage, withRaw } from '../../../test/fixtures/pruning/prune-helpers.js'
import { buildV2Fixture } from '../../../test/fixtures/v2-fixture.js'

const seqOf = (m: NativeMessage): number => (m.storage === 'v2' ? m.seq : -1)

describe('2.x forks (current upstream shapes): copies of the parent rows', () => {
  let deps: TestDeps | undefined
  afterEach(() => {
    deps?.cleanup()
    deps = undefined
  })

  /** The current-shape fixture's main session planned whole, and which of its candidates the fork copied (same seq). */
  async function planMainSession() {
    const manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'fresh', shape: 'current' })
    const main = manifest.sessions.find((s) => s.key === 'main')!
    const fork = manifest.sessions.find((s) => s.key === 'fork')!
    deps = await createTestDeps(manifest.file)
    const caller = createCaller({ deps })
    const plan = await caller.pruning.sessionPlan({ sessionID: main.id, storage: 'v2' })
    const copiedSeqs = new Set(fork.messages.map(seqOf))
    const inFork = plan.candidates.filter((c) => copiedSeqs.has(seqOf(main.messages.find((m) => m.id === c.messageID)!)))
    return { main, fork, caller, plan, inFork, opened: deps }
  }

  it('the preview names the forks that keep a copy; a prune of the parent leaves the fork copy as it was', async () => {
    const { main, fork, caller, plan, inFork, opened } = await planMainSession()
    const afterBoundary = plan.candidates.filter((c) => !inFork.includes(c))
    expect(inFork.length).toBeGreaterThan(0)
    expect(afterBoundary.length).toBeGreaterThan(0)

    const copied = inFork[0]!
    const preview = await caller.pruning.preview({ sessionID: main.id, storage: 'v2', messageID: copied.messageID })
    expect(preview).toMatchObject({ status: 'preview', copies: [{ sessionID: fork.id, title: fork.title }] })
    expect(await caller.pruning.preview({ sessionID: main.id, storage: 'v2', messageID: afterBoundary[0]!.messageID })).toMatchObject({ status: 'preview', copies: [] })
    // The fork itself has no fork: its own preview lists none.
    const forkCopy = fork.messages.find((m) => seqOf(m) === seqOf(main.messages.find((x) => x.id === copied.messageID)!))!
    expect(await caller.pruning.preview({ sessionID: fork.id, storage: 'v2', messageID: forkCopy.id })).toMatchObject({ status: 'preview', copies: [] })

    const before = await readMessage(caller, fork.id, forkCopy.id, 'v2')
    expect(await caller.pruning.prune({ sessionID: main.id, storage: 'v2', messageID: copied.messageID, revision: copied.revision, indexes: [(preview as { parts: { index: number }[] }).parts[0]!.index] })).toMatchObject({ status: 'pruned' })
    expect((await readMessage(caller, fork.id, forkCopy.id, 'v2')).content).toEqual(before.content)
    // Once the parent's row differs from the copy, the copy is no longer "the same message".
    expect(await caller.pruning.preview({ sessionID: main.id, storage: 'v2', messageID: copied.messageID })).toMatchObject({ copies: [] })
    withRaw(opened, (db) => {
      expect(db.prepare(`SELECT fork_session_id FROM session_v2 WHERE id = ?`).pluck().get(fork.id)).toBe(main.id)
    })
  })

  it("a whole-session plan names the forks' copies, planned in each fork; pruning them there removes the content from the copies, each by its own revision", async () => {
    const { main, fork, caller, plan, inFork } = await planMainSession()
    expect(plan.forks).toHaveLength(1)
    const [forkPlan] = plan.forks
    expect(forkPlan).toMatchObject({ sessionID: fork.id, title: fork.title })
    // One candidate in the fork per copied candidate of the parent, with the fork's own message ids.
    const forkSeqs = forkPlan!.candidates.map((c) => seqOf(fork.messages.find((m) => m.id === c.messageID)!)).sort()
    expect(forkSeqs).toEqual(inFork.map((c) => seqOf(main.messages.find((m) => m.id === c.messageID)!)).sort())
    expect(forkPlan!.bytes).toBe(forkPlan!.candidates.reduce((n, c) => n + c.bytes, 0))
    // The fork's own plan does not point back at the parent.
    expect((await caller.pruning.sessionPlan({ sessionID: fork.id, storage: 'v2' })).forks).toEqual([])

    const parentResults = (await caller.pruning.pruneBatch({ sessionID: main.id, storage: 'v2', candidates: inFork.map((c) => ({ messageID: c.messageID, revision: c.revision })) })).results
    expect(parentResults.every((r) => r.result.status === 'pruned')).toBe(true)
    // The parent's prune left the copies as they were; a stale revision for a copy is refused, nothing written.
    const [first, ...rest] = forkPlan!.candidates
    const untouched = await readMessage(caller, fork.id, first!.messageID, 'v2')
    expect(untouched.content.some((item) => (item as { type?: string }).type === 'tool' || (item as { type?: string }).type === 'reasoning')).toBe(true)
    const stale = await caller.pruning.pruneBatch({ sessionID: fork.id, storage: 'v2', candidates: [{ messageID: first!.messageID, revision: inFork[0]!.revision === first!.revision ? 'f'.repeat(64) : inFork[0]!.revision }] })
    expect(stale.results[0]?.result).toMatchObject({ status: 'blocked', reason: 'conflict' })
    expect(await readMessage(caller, fork.id, first!.messageID, 'v2')).toEqual(untouched)

    const forkResults = (await caller.pruning.pruneBatch({ sessionID: fork.id, storage: 'v2', candidates: [first!, ...rest].map((c) => ({ messageID: c.messageID, revision: c.revision })) })).results
    expect(forkResults.map((r) => r.result.status)).toEqual(forkPlan!.candidates.map(() => 'pruned'))
    for (const c of forkPlan!.candidates) {
      const copy = await readMessage(caller, fork.id, c.messageID, 'v2')
      expect(copy.content.some((item) => (item as { type?: string }).type === 'tool' || (item as { type?: string }).type === 'reasoning')).toBe(false)
    }
    // A receipt per session: the same request again answers the same receipt, writing nothing new.
    const again = (await caller.pruning.pruneBatch({ sessionID: fork.id, storage: 'v2', candidates: [{ messageID: first!.messageID, revision: first!.revision }] })).results[0]?.result
    expect(again).toMatchObject({ status: 'pruned', messageID: first!.messageID })
    expect((await caller.pruning.sessionPlan({ sessionID: main.id, storage: 'v2' })).forks).toEqual([])
  })
})

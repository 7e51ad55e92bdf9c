import Database from 'better-sqlite3'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, type TestDeps } from '../../../test/harness.js'
import { buildV2Fixture, type V2Shape } from '../../../test/fixtures/v2-fixture.js'

describe.each<V2Shape>(['july', 'current'])('context versus storage-only tokens after a 2.x compaction (%s shapes)', (shape) => {
  let deps: TestDeps | undefined
  afterEach(() => {
    deps?.cleanup()
    deps = undefined
  })

  it('counts candidates before the latest completed compaction as storage only, the rest as context', async () => {
    const manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'fresh', shape })
    const main = manifest.sessions.find((s) => s.key === 'main')!
    const seqOf = (id: string) => main.messages.find((m) => m.id === id && m.storage === 'v2') as { seq: number } | undefined
    const compaction = main.messages.find((m) => m.storage === 'v2' && m.message.type === 'compaction') as { seq: number } | undefined
    if (!compaction) throw new Error('main has no compaction row')
    deps = await createTestDeps(manifest.file)
    const caller = createCaller({ deps })
    const plan = await caller.pruning.sessionPlan({ sessionID: main.id, storage: 'v2' })
    const before = plan.candidates.filter((c) => seqOf(c.messageID)!.seq < compaction.seq)
    const after = plan.candidates.filter((c) => seqOf(c.messageID)!.seq > compaction.seq)
    expect(before.length).toBeGreaterThan(0)
    expect(after.length).toBeGreaterThan(0)
    expect(before.every((c) => c.storageOnly)).toBe(true)
    expect(after.every((c) => !c.storageOnly)).toBe(true)
    const sum = (cs: typeof plan.candidates) => cs.reduce((n, c) => n + c.tokens, 0)
    expect(plan.totals).toMatchObject({ storageOnlyTokens: sum(before), contextTokens: sum(after), tokens: sum(before) + sum(after) })
    // The one-message preview (a selection's review) says the same of each message.
    const preview = (messageID: string) => caller.pruning.preview({ sessionID: main.id, storage: 'v2', messageID })
    expect(await preview(before[0]!.messageID)).toMatchObject({ status: 'preview', storageOnly: true })
    expect(await preview(after[0]!.messageID)).toMatchObject({ status: 'preview', storageOnly: false })

    // Without a completed compaction every candidate is context.
    const child = manifest.sessions.find((s) => s.key === 'child')!
    const childPlan = await caller.pruning.sessionPlan({ sessionID: child.id, storage: 'v2' })
    expect(childPlan.totals.storageOnlyTokens).toBe(0)
    expect(childPlan.totals.contextTokens).toBe(childPlan.totals.tokens)
  })

  it('does not treat a native compaction window as a boundary (only some models replay it)', async () => {
    const manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'fresh', shape })
    const main = manifest.sessions.find((s) => s.key === 'main')!
    const db = new Database(manifest.file)
    db.prepare(`UPDATE session_message SET data = json_set(data, '$.providerContext', json('{"provenance":{"providerID":"openai"}}')) WHERE session_id = ? AND type = 'compaction'`).run(main.id)
    db.close()
    deps = await createTestDeps(manifest.file)
    const plan = await createCaller({ deps }).pruning.sessionPlan({ sessionID: main.id, storage: 'v2' })
    expect(plan.totals.storageOnlyTokens).toBe(0)
    expect(plan.candidates.every((c) => !c.storageOnly)).toBe(true)
  })

  it('the preview counts compaction rows that still quote a tool output of the message', async () => {
    const manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'fresh', shape })
    const main = manifest.sessions.find((s) => s.key === 'main')!
    const db = new Database(manifest.file)
    const output = 'src/preview.tsx:14:  aspectRatio: undefined,'
    db.prepare(`UPDATE session_message SET data = json_set(data, '$.recent', json_extract(data, '$.recent') || ?) WHERE session_id = ? AND type = 'compaction'`)
      .run(`\n\n[Tool shell]: ${output}`, main.id)
    db.close()
    deps = await createTestDeps(manifest.file)
    const caller = createCaller({ deps })
    const quoting = main.messages.find((m) => m.storage === 'v2' && JSON.stringify(m.message.content ?? []).includes(output))!
    const other = main.messages.find((m) => m.storage === 'v2' && m.message.type === 'assistant' && m.id !== quoting.id && JSON.stringify(m.message.content).includes('"tool"'))!
    expect(await caller.pruning.preview({ sessionID: main.id, storage: 'v2', messageID: quoting.id })).toMatchObject({ status: 'preview', compactionCopies: 1 })
    expect(await caller.pruning.preview({ sessionID: main.id, storage: 'v2', messageID: other.id })).toMatchObject({ status: 'preview', compactionCopies: 0 })
  })
})

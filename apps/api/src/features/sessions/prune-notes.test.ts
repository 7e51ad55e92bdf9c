import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, tempDir, TEST_NOW, type RealFixture, type TestDeps } from '../../../test/harness.js'
import { fixtureIds, type FixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'
import { readMessage } from '../../../test/fixtures/pruning/prune-helpers.js'
import { buildV2Fixture } from '../../../test/fixtures/pruning/v2-fixture.js'

describe('sessions.pruneNotes (where Loupe pruned, from its receipts)', () => {
  let fixture: RealFixture
  let ids: FixtureIds
  let deps: TestDeps | undefined
  const dirs: string[] = []

  beforeAll(async () => {
    fixture = await realFixture()
    ids = fixtureIds(fixture.dir)
  })
  afterEach(() => {
    deps?.cleanup()
    deps = undefined
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  })

  async function pruneTwice(file: string, storage: 'v1' | 'v2', session: string, message: string, indexes: [number, number]) {
    deps = await createTestDeps(file)
    const caller = createCaller({ deps })
    const notes = (messageIDs: string[]) => caller.sessions.pruneNotes({ sessionID: session, storage, messageIDs })
    expect(await notes([message])).toEqual({ notes: [] })
    // Two prunes of one message: one note, its parts summed.
    let before = await readMessage(caller, session, message, storage)
    expect(await caller.pruning.prune({ sessionID: session, messageID: message, revision: before.revision, indexes: [indexes[0]] })).toMatchObject({ status: 'pruned' })
    before = await readMessage(caller, session, message, storage)
    expect(await caller.pruning.prune({ sessionID: session, messageID: message, revision: before.revision, indexes: [indexes[1]] })).toMatchObject({ status: 'pruned' })
    const answer = await notes([message, message])
    expect(answer.notes).toHaveLength(1)
    expect(answer.notes[0]).toMatchObject({ messageID: message, parts: 2 })
    expect(answer.notes[0]!.at).toBeGreaterThanOrEqual(TEST_NOW - 86_400_000)
    return { caller, notes }
  }

  it('notes a pruned 1.x message, and nothing for messages of other sessions', async () => {
    const { notes } = await pruneTwice(fixture.db, 'v1', ids.tour, ids.tourMessage, [3, 1])
    expect(await notes([ids.tourUser])).toEqual({ notes: [] })
    // Another session's message id is not this session's to report.
    await expect(createCaller({ deps: deps! }).sessions.pruneNotes({ sessionID: ids.plan, storage: 'v1', messageIDs: [ids.tourMessage] })).resolves.toEqual({ notes: [] })
  })

  it('notes a pruned 2.x message from the receipts in kv', async () => {
    const dir = tempDir()
    dirs.push(dir)
    const { file } = buildV2Fixture(fixture.db, path.join(dir, 'opencode.db'))
    await pruneTwice(file, 'v2', ids.v2.tour, ids.v2.tourMessage, [2, 0])
  })

  it('refuses bad input with a typed error', async () => {
    deps = await createTestDeps(fixture.db)
    const caller = createCaller({ deps })
    await expect(caller.sessions.pruneNotes({ sessionID: ids.tour, messageIDs: [] })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(caller.sessions.pruneNotes({ sessionID: ids.tour, messageIDs: ["x' OR 1=1 --"] })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })
})

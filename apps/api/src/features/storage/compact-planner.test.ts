import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { AppError } from '../../errors.js'
import { planSessionLog } from './compact-plan-read.js'
import { createCompactPlanner, type CompactPlanner } from './compact-planner.js'

let deps: TestDeps | undefined
let planner: CompactPlanner | undefined
afterEach(async () => {
  await planner?.close()
  deps?.cleanup()
})

const v1Log = (d: TestDeps) => {
  const log = d.opencode.stores.byGeneration.v1?.eventCompaction.log
  if (!log) throw new Error('the real fixture has a 1.x event log')
  return log
}

describe('the compaction planning thread', () => {
  it('plans every session of the real fixture as the server\'s own connection does', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const log = v1Log(deps)
    const { db } = deps.opencode
    const sessions = db.read(() => log.listSessions(db))
    expect(sessions.length).toBeGreaterThan(1)
    planner = createCompactPlanner(deps.opencode)
    let redactions = 0
    for (const s of sessions) {
      const here = planSessionLog(db, log, s.sessionID)
      expect(await planner.plan('v1', s.sessionID)).toEqual(here)
      if (typeof here !== 'string' && here.ok) redactions += here.plan.redactions.length
    }
    expect(redactions).toBeGreaterThan(0)
  })

  it('answers unavailable when it cannot read, and after it has closed', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const { path } = deps.opencode
    const sessionID = deps.opencode.db.read(() => v1Log(deps!).listSessions(deps!.opencode.db))[0]!.sessionID
    // No 2.x store in a 1.x file: the thread answers the request with an error, and goes on.
    planner = createCompactPlanner(deps.opencode)
    await expect(planner.plan('v2', sessionID)).rejects.toThrow(/^The compaction could not read the event log: no event log for v2$/)
    expect(typeof (await planner.plan('v1', sessionID))).toBe('object')
    await planner.close()
    await expect(planner.plan('v1', sessionID)).rejects.toBeInstanceOf(AppError)
    // A file the thread cannot open: its start fails, and so does every plan asked of it.
    fs.renameSync(path, `${path}.moved`)
    planner = createCompactPlanner(deps.opencode)
    const failed = await planner.plan('v1', sessionID).catch((error: unknown) => error)
    fs.renameSync(`${path}.moved`, path)
    expect(failed).toBeInstanceOf(AppError)
    expect((failed as AppError).code).toBe('unavailable')
    expect((failed as AppError).message).toMatch(/^The compaction's reading thread stopped: /)
  })
})

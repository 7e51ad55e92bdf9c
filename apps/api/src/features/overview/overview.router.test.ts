import fs from 'node:fs'
import { TRPCError } from '@trpc/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'

describe('overview.usage input', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
  })
  afterAll(() => deps?.cleanup())

  it('defaults to the last 30 days per day by model, in UTC', async () => {
    const usage = await caller.overview.usage({})
    expect(usage).toMatchObject({ days: 30, interval: 'day', groupBy: 'model', tzOffsetMinutes: 0 })
    expect(usage.buckets).toHaveLength(30)
  })

  it.each([
    ['a range it does not offer', { days: 7 }],
    ['an offset past UTC+14', { tzOffsetMinutes: 15 * 60 }],
    ['a fractional offset', { tzOffsetMinutes: 30.5 }],
    ['an unknown grouping', { groupBy: 'agent' }],
    ['an unknown key', { days: 30, sql: 'SELECT 1' }],
  ])('refuses %s with BAD_REQUEST and changes nothing', async (_name, input) => {
    const before = fs.statSync(deps.opencode.path).mtimeMs
    const error = await caller.overview.usage(input as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TRPCError)
    expect((error as TRPCError).code).toBe('BAD_REQUEST')
    expect(fs.statSync(deps.opencode.path).mtimeMs).toBe(before)
  })
})

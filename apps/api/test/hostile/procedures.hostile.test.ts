import { TRPCError } from '@trpc/server'
import fc from 'fast-check'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appRouter } from '../../src/trpc/app-router.js'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../harness.js'
import { hostileInput } from './arbitraries.js'

const fileDigest = (path: string) => {
  const hash = createHash('sha256')
  for (const suffix of ['', '-wal']) if (fs.existsSync(path + suffix)) hash.update(fs.readFileSync(path + suffix))
  return hash.digest('hex')
}

type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription' } }
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>)
  .filter(([, p]) => p._def.type !== 'subscription')
  .map(([path]) => path)

/** Call `a.b` on the caller proxy by its dotted path. */
function callByPath(caller: ReturnType<typeof createCaller>, path: string, input: unknown): Promise<unknown> {
  const fn = path.split('.').reduce<any>((node, key) => node[key], caller)
  return fn(input)
}

describe('every procedure under hostile input', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  let before: string

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    deps.opencode.db.raw.pragma('wal_checkpoint(TRUNCATE)')
    before = fileDigest(deps.opencode.path)
  })
  afterAll(() => deps.cleanup())

  it('covers the procedures of the router', () => {
    expect(procedures).toEqual(expect.arrayContaining(['storage.info', 'sessions.list', 'sessions.messages']))
  })

  it.each(procedures)('%s answers a typed error or a value, never an internal error', async (path) => {
    await fc.assert(
      fc.asyncProperty(hostileInput, async (input) => {
        try {
          await callByPath(caller, path, input)
        } catch (error) {
          expect(error).toBeInstanceOf(TRPCError)
          expect((error as TRPCError).code).not.toBe('INTERNAL_SERVER_ERROR')
        }
      }),
      { numRuns: 150 },
    )
  })

  it('changed nothing in the OpenCode database', () => {
    deps.opencode.db.raw.pragma('wal_checkpoint(TRUNCATE)')
    expect(fileDigest(deps.opencode.path)).toBe(before)
  })
})

import { describe, expect, it } from 'vitest'
import { freePort } from '../../../../tools/loupe-server.mjs'
import { realApi } from '../../test/real-api'
import { describeProblem } from './errors'
import { createApi } from './trpc'

const failure = async (call: () => Promise<unknown>) => {
  try {
    await call()
  } catch (error) {
    return describeProblem(error)
  }
  throw new Error('the call succeeded')
}

describe('describeProblem', () => {
  it('says a missing token link is the problem when the api answers 401', async () => {
    const problem = await failure(() => realApi(null).sessions.list.query({}))
    expect(problem.kind).toBe('unauthorized')
    expect(problem.hint).toMatch(/npm start/)
  })

  it('passes on the api message for an unknown session', async () => {
    const problem = await failure(() => realApi().sessions.get.query({ sessionID: 'ses_missing0000000000000000' }))
    expect(problem).toMatchObject({ kind: 'not_found', detail: expect.stringContaining('ses_missing0000000000000000') })
  })

  it('asks for a reload when a cursor is stale', async () => {
    const problem = await failure(() => realApi().sessions.list.query({ cursor: 'not-a-cursor' }))
    expect(problem.kind).toBe('bad_request')
  })

  it('says the server is gone when nothing listens', async () => {
    const port = await freePort()
    const problem = await failure(() => createApi(`http://127.0.0.1:${port}/trpc`).storage.info.query())
    expect(problem.kind).toBe('offline')
  })
})

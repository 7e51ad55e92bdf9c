import { describe, expect, it } from 'vitest'
import { serveRealFixture } from '../../test/server.js'

const q = (input: unknown) => encodeURIComponent(JSON.stringify(input))

interface Answer {
  status: number
  type: string | null
  vary: string | null
  text: string
}

describe('tRPC over loopback, through the stock Fastify adapter', () => {
  const served = serveRealFixture()
  const get = async (path: string): Promise<Answer> => {
    const res = await served.server.fetch(`/trpc/${path}`)
    return { status: res.status, type: res.headers.get('content-type'), vary: res.headers.get('vary'), text: await res.text() }
  }

  it('answers queries alone and in batches with plain JSON, and pages with the cursor it gave', async () => {
    const one = await get(`history.search?input=${q({ query: 'stdin', limit: 1 })}`)
    expect(one.status).toBe(200)
    expect(one.type).toBe('application/json')
    expect(one.vary).toBe('trpc-accept, accept')
    const data = (JSON.parse(one.text) as { result: { data: { hits: unknown[]; cursor: string | null } } }).result.data
    expect(data.hits).toHaveLength(1)
    expect(data.cursor).toBeTruthy()

    const batch = await get(`history.search?batch=1&input=${q({ 0: { query: '"exact phrase" -x pr*', limit: 3 } })}`)
    expect(batch.status).toBe(200)
    expect(Array.isArray(JSON.parse(batch.text))).toBe(true)
    const two = await get(`storage.info,sessions.list?batch=1&input=${q({ 1: { limit: 1 } })}`)
    expect(two.status).toBe(200)
    expect((JSON.parse(two.text) as unknown[]).length).toBe(2)

    const next = await get(`history.search?input=${q({ query: 'stdin', limit: 1, cursor: data.cursor })}`)
    expect(next.status).toBe(200)
    // A cursor names one query's ranked snapshot; another query's cursor is a conflict.
    expect((await get(`history.search?input=${q({ query: 'other', cursor: data.cursor })}`)).status).toBe(409)
  })

  it('maps failures to their status through the one error table, as JSON without stack traces', async () => {
    const cases: Array<[string, number]> = [
      ['storage.info', 200],
      [`sessions.list?input=${q({ limit: 2 })}`, 200],
      [`history.search?input=${q({})}`, 400],
      [`history.search?batch=1&input=${q({ 0: { limit: 1 } })}`, 400],
      [`history.search?input=${q({ query: 'stdin', sessionID: 'ses_unknown' })}`, 404],
      [`history.search?input=${q({ query: 'stdin', cursor: 'not-a-cursor!' })}`, 400],
      ['history.search?input=5', 400],
      ['history.search?input=%7B', 400],
      ['nothing.here', 404],
      [`pruning.prune?input=${q({})}`, 405],
    ]
    for (const [path, status] of cases) {
      const answer = await get(path)
      expect(answer.status, path).toBe(status)
      expect(answer.type, path).toBe('application/json')
      expect(answer.text, path).not.toMatch(/"stack"|at .*\.[jt]s:\d+/)
      if (status >= 400) {
        const body = JSON.parse(answer.text) as { error?: { data: { code: string; httpStatus: number } } } | Array<{ error: { data: { httpStatus: number } } }>
        const error = Array.isArray(body) ? body[0]!.error : body.error!
        expect(error.data.httpStatus, path).toBe(status)
      }
    }
  })
})

import { describe, expect, it } from 'vitest'
import { serveRealFixture } from '../../../test/index.js'

const query = (input: unknown) => `/trpc/history.search?input=${encodeURIComponent(JSON.stringify(input))}`

describe('history over HTTP', () => {
  const served = serveRealFixture()

  it('answers with the status codes of the error table', async () => {
    const first = await served.server.fetch(query({ query: 'stdin', limit: 1 }))
    expect(first.status).toBe(200)
    const body = (await first.json()) as { result: { data: { cursor: string | null; mode: string } } }
    expect(body.result.data.mode).toBe('scan')
    expect(body.result.data.cursor).toBeTruthy()
    expect((await served.server.fetch(query({ query: 'other', cursor: body.result.data.cursor }))).status).toBe(409)
    expect((await served.server.fetch(query({ query: 'stdin', cursor: 'not-a-cursor!' }))).status).toBe(400)
    expect((await served.server.fetch(query({ query: 'stdin', sessionID: 'ses_unknown' }))).status).toBe(404)
    // A 10 KB query is answered; one past what a URL can carry is refused before it reaches Loupe.
    expect((await served.server.fetch(query({ query: 'stdin '.repeat(1700) }))).status).toBe(200)
    expect([400, 431]).toContain((await served.server.fetch(query({ query: 'x'.repeat(40_000) }))).status)
    expect((await served.server.fetch(query({ query: 'stdin' }), { auth: false })).status).toBe(401)
  })

  it('pushes index progress over SSE until the build is ready', async () => {
    const controller = new AbortController()
    const res = await served.server.fetch('/trpc/history.progress', { signal: controller.signal, headers: { accept: 'text/event-stream' } })
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read()
        if (done) break
        text += decoder.decode(value)
      }
    }
    await readUntil(/"state":"building"/)
    served.deps.searchIndex.runUntilIdle()
    await readUntil(/"state":"ready"/)
    controller.abort()
    expect(text).toMatch(/"indexedParts":\d+/)
    const ranked = (await (await served.server.fetch(query({ query: 'stdin' }))).json()) as { result: { data: { mode: string } } }
    expect(ranked.result.data.mode).toBe('index')
  })
})

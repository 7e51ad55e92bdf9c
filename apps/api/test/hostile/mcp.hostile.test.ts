import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MCP_ANSWER_BYTES } from '../../src/mcp/mcp.schema.js'
import { createTestDeps, realFixture, type TestDeps } from '../harness.js'
import { serveRealFixture } from '../server.js'
import { connectMcp } from '../mcp-client.js'
import { hostileInput } from './arbitraries.js'

const TYPED = /^(invalid_input|invalid_cursor|not_found|conflict|limit|unsupported_storage|unavailable): |^MCP error -32602: Input validation error/

/** Tool arguments are a JSON object on the wire: anything else is sent as one field of one. */
const hostileArgs = hostileInput.map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : { query: v }))

describe('every MCP tool under hostile input', () => {
  let deps: TestDeps
  let mcp: Awaited<ReturnType<typeof connectMcp>>
  const stats = { calls: 0, errors: 0, overBound: 0 }
  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    deps.searchIndex.runUntilIdle()
    mcp = await connectMcp(deps)
  })
  afterAll(async () => {
    await mcp?.close()
    deps?.cleanup()
  })

  it.each(['session_search', 'session_read', 'storage_report'])('%s answers a value or a typed error, within the bound', async (tool) => {
    await fc.assert(
      fc.asyncProperty(hostileArgs, async (args) => {
        // JSON on the wire: undefined and other non-JSON values do not survive it.
        const wire = JSON.parse(JSON.stringify(args) ?? '{}') as Record<string, unknown>
        const answer = await mcp.call(tool, wire)
        stats.calls++
        if (answer.bytes > MCP_ANSWER_BYTES) stats.overBound++
        expect(answer.bytes).toBeLessThanOrEqual(MCP_ANSWER_BYTES)
        if (answer.isError) {
          stats.errors++
          expect(answer.text).toMatch(TYPED)
        }
      }),
      { numRuns: 120 },
    )
  })

  it('counted no answer over the bound', () => {
    expect(stats.calls).toBe(360)
    expect(stats.overBound).toBe(0)
  })
})

describe('/mcp under hostile tool calls on the wire', () => {
  const served = serveRealFixture()
  const call = fc.record({
    name: fc.constantFrom('session_search', 'session_read', 'storage_report', 'no_such_tool'),
    arguments: hostileInput,
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })),
  })

  it('answers JSON-RPC, never 5xx, and no tool text over the bound', async () => {
    let results = 0
    await fc.assert(
      fc.asyncProperty(call, async (c) => {
        const res = await served.server.fetch('/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: c.id, method: 'tools/call', params: { name: c.name, arguments: c.arguments } }),
        })
        const text = await res.text()
        expect(res.status).toBeLessThan(500)
        if (res.status !== 200) return
        const body = JSON.parse(text) as { result?: { content: Array<{ text?: string }> }; error?: unknown }
        if (body.result) results++
        for (const item of body.result?.content ?? []) expect(Buffer.byteLength(item.text ?? '')).toBeLessThanOrEqual(MCP_ANSWER_BYTES)
      }),
      { numRuns: 150 },
    )
    // Most calls reach a tool (the rest are refused as JSON-RPC errors): the property saw real answers.
    expect(results).toBeGreaterThan(50)
  })
})

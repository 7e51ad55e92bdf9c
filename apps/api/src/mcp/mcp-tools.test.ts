import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, createTestDeps, realFixture, tempDir, type TestDeps } from '../../test/harness.js'
import { connectMcp } from '../../test/mcp-client.js'
import { addV1Message, addV1Session, textPart, toolPart } from '../../test/search-fixtures.js'
import { search } from '../features/history/history.service.js'
import { MCP_ANSWER_BYTES } from './mcp.schema.js'

const BIG = 'glimmerwort'

/** The real fixture plus one session whose tool outputs are far over one answer. */
async function fixtureWithBigSession(): Promise<{ file: string; sessionID: string; messageIDs: string[] }> {
  const file = copyDb((await realFixture()).db, tempDir())
  const raw = new Database(file)
  const time = Date.now() - 3_600_000
  const sessionID = addV1Session(raw, { title: 'Huge outputs', directory: '/srv/huge', time })
  const messageIDs: string[] = []
  for (let i = 0; i < 8; i++) {
    const parts = i % 2 === 0
      ? [textPart(`question ${i} about ${BIG}`)]
      : [textPart(`answer ${i}`), ...Array.from({ length: 24 }, (_, k) => toolPart('bash', { command: `cat big-${i}-${k}.log` }, `${BIG} ${k}\n${'a line of build output\n'.repeat(500)}`))]
    messageIDs.push(addV1Message(raw, { sessionID, role: i % 2 === 0 ? 'user' : 'assistant', time: time + i * 1000, parts }).messageID)
  }
  raw.close()
  return { file, sessionID, messageIDs }
}

describe('MCP tools over the real services', () => {
  let deps: TestDeps
  let big: Awaited<ReturnType<typeof fixtureWithBigSession>>
  let mcp: Awaited<ReturnType<typeof connectMcp>>
  beforeAll(async () => {
    big = await fixtureWithBigSession()
    deps = await createTestDeps(big.file)
    deps.searchIndex.runUntilIdle()
    mcp = await connectMcp(deps)
  })
  afterAll(async () => {
    await mcp?.close()
    deps?.cleanup()
  })

  it('lists three read-only tools', async () => {
    const { tools } = await mcp.client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['session_read', 'session_search', 'storage_report'])
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true)
    expect(tools.find((t) => t.name === 'session_search')?.inputSchema.properties).toHaveProperty('query')
  })

  it('finds what history.search finds, with the ids session_read takes', async () => {
    const expected = search(deps, { query: 'stdin', limit: 5 })
    const got = await mcp.call('session_search', { query: 'stdin', limit: 5 })
    expect(got.isError).toBe(false)
    const hits = got.data.hits as Array<{ sessionID: string; messageID: string | null }>
    expect(hits.map((h) => `${h.sessionID}/${h.messageID}`)).toEqual(expected.hits.map((h) => `${h.sessionID}/${h.messageID}`))
    expect(got.text).toContain(`sessionID=${expected.hits[0]!.sessionID}`)
    expect(got.text).toMatch(/«stdin»/i)

    const first = hits.find((h) => h.messageID)!
    const read = await mcp.call('session_read', { sessionID: first.sessionID, messageID: first.messageID })
    expect(read.isError).toBe(false)
    expect(read.text).toContain(`>>> --- `)
    expect(read.text).toContain(`message ${first.messageID}`)
    expect(read.data.messages).toContain(first.messageID)
  })

  it('keeps every answer under 32 KB and gives a cursor for the rest', async () => {
    const seen = new Set<string>()
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await mcp.call('session_search', { query: BIG, limit: 50, ...(cursor ? { cursor } : {}) })
      expect(page.isError).toBe(false)
      expect(page.bytes).toBeLessThanOrEqual(MCP_ANSWER_BYTES)
      for (const h of page.data.hits as Array<{ sessionID: string; messageID: string }>) seen.add(`${h.messageID}`)
      cursor = (page.data.cursor as string | null) ?? undefined
      pages++
    } while (cursor && pages < 20)
    expect([...seen].sort()).toEqual([...big.messageIDs].sort())

    const read = await mcp.call('session_read', { sessionID: big.sessionID, messageID: big.messageIDs[3], before: 3, after: 4 })
    expect(read.bytes).toBeLessThanOrEqual(MCP_ANSWER_BYTES)
    expect(read.text).toContain(`>>> --- assistant message ${big.messageIDs[3]}`)
    expect(read.text).toContain('[tool bash completed] cat big-3-0.log')
    const more = read.data.cursor as string
    expect(more).toBeTruthy()
    const rest = await mcp.call('session_read', { sessionID: big.sessionID, cursor: more })
    expect(rest.bytes).toBeLessThanOrEqual(MCP_ANSWER_BYTES)
    const shown = read.data.messages as string[]
    expect((rest.data.messages as string[])[0]).toBe(big.messageIDs[big.messageIDs.indexOf(shown.at(-1)!) + 1])
  })

  it('answers bad input with the typed errors of the procedures', async () => {
    const unknown = await mcp.call('session_read', { sessionID: 'ses_doesnotexist' })
    expect(unknown).toMatchObject({ isError: true, data: { error: 'not_found' } })
    expect(unknown.text).toMatch(/^not_found: /)
    const first = await mcp.call('session_search', { query: 'stdin', limit: 1 })
    const conflict = await mcp.call('session_search', { query: 'other words', limit: 1, cursor: first.data.cursor })
    expect(conflict).toMatchObject({ isError: true, data: { error: 'conflict' } })
    expect(await mcp.call('session_search', { query: 'stdin', cursor: 'not-a-cursor' })).toMatchObject({ isError: true, data: { error: 'invalid_cursor' } })
    expect(await mcp.call('session_search', { query: 'stdin', scope: 'no such place!' })).toMatchObject({ isError: true, data: { error: 'invalid_input' } })
    expect(await mcp.call('session_search', { query: 'stdin', scope: '/nowhere/at/all' })).toMatchObject({ isError: true, data: { error: 'not_found' } })
    expect(await mcp.call('session_search', { query: 'stdin', since: 10, until: 5 })).toMatchObject({ isError: true, data: { error: 'invalid_input' } })
    const badType = await mcp.call('session_search', { query: 42 })
    expect(badType.isError).toBe(true)
    expect(badType.text).toMatch(/Input validation error/)
  })

  it('reports sessions and bytes', async () => {
    const report = await mcp.call('storage_report', {})
    expect(report.isError).toBe(false)
    expect(report.text).toMatch(/^OpenCode database: /)
    expect(report.text).toContain('Huge outputs')
    expect(report.data.sessions).toBeGreaterThan(3)
    expect(report.data.dbBytes).toBe(deps.opencode.fileSizes().db)
  })
})

import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { addV1Message, addV1Session, textPart, toolPart } from '../../../test/search-fixtures.js'
import { parseQuery } from '@loupe/domain'
import { resolveScope, type SearchHit } from './history-scope.js'
import { scanPage, startScan } from './literal-scan.js'

const T = TEST_NOW - 900_000
type Caller = ReturnType<typeof createCaller>
const key = (h: { messageID: string | null; partID?: string; index?: number; kind: string }) => `${h.kind}:${h.messageID}/${h.partID ?? h.index ?? ''}`

async function scanAll(caller: Caller, query: string, between?: () => void) {
  const keys: string[] = []
  const hits: SearchHit[] = []
  const progress: number[] = []
  let cursor: string | undefined
  let pages = 0
  for (; pages < 10_000; pages++) {
    const answer = await caller.history.search({ query, limit: 100, ...(cursor ? { cursor } : {}) })
    expect(answer.mode).toBe('scan')
    expect(answer.hits.length).toBeLessThanOrEqual(32)
    keys.push(...answer.hits.map(key))
    hits.push(...answer.hits)
    progress.push(answer.scan!.progress)
    if (!answer.cursor) break
    cursor = answer.cursor
    between?.()
  }
  return { keys, pages, hits, progress }
}

describe('history.search while the index is not ready (literal scan)', () => {
  let deps: TestDeps
  let caller: Caller
  let db: Database.Database
  let session: string

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    db = new Database(deps.opencode.path)
    session = addV1Session(db, { title: 'Scan me', time: T })
    for (let i = 0; i < 40; i++) {
      addV1Message(db, { sessionID: session, role: 'assistant', time: T + i * 10, parts: [textPart(`the heron flies ${i}`), toolPart('bash', { command: `echo ${i}` }, `heron-${i} RÉFLEXION`)] })
    }
  })
  afterAll(() => {
    db.close()
    deps.cleanup()
  })

  it('says it is a scan, marks matches, and bounds each page', async () => {
    const first = await caller.history.search({ query: 'heron', limit: 100 })
    expect(first).toMatchObject({ mode: 'scan', index: { state: 'building' } })
    expect(first.notice).toMatch(/still being built/)
    expect(first.hits.length).toBeLessThanOrEqual(32)
    expect(first.scan!.scanned).toBeGreaterThan(0)
    // How many rows a 40 ms page reaches depends on the machine's load, so the hits are checked over every page.
    const { hits } = await scanAll(caller, 'heron')
    expect(hits.length).toBeGreaterThan(0)
    for (const hit of hits) expect(hit.snippet.some((s) => s.match && s.text.toLowerCase().includes('heron'))).toBe(true)
    // Each hit names its session and where it ran.
    expect(new Set(hits.map((h) => `${h.sessionTitle} ${h.sessionDirectory !== ''}`))).toEqual(new Set(['Scan me true']))
  })

  it('moves forward by at least one row on every page, even one that spent its time budget on titles', () => {
    const query = parseQuery('heron')
    const scope = resolveScope(deps, {}, query)
    let position = deps.opencode.db.read(() => startScan(deps.opencode.db, scope))
    let rows = 0
    for (let pages = 0; pages < 3; pages++) {
      const page = scanPage(deps, query, scope, position, 32, 0)
      expect(page.scanned).toBeGreaterThan(0)
      rows += page.scanned
      position = page.position
    }
    expect(position.phase).toBe('v1')
    expect(position.after).toBeGreaterThan(0)
    expect(rows).toBeGreaterThanOrEqual(3)
  })

  it('finds the same documents as the index, across pages, case- and accent-insensitively', async () => {
    const scanned = await scanAll(caller, 'heron')
    expect(scanned.pages).toBeGreaterThan(1)
    // How far through history each page is: rising, 1 once the scan is over.
    expect(scanned.progress.at(-1)).toBe(1)
    expect(scanned.progress.every((p, i) => p >= 0 && p <= 1 && (i === 0 || p >= scanned.progress[i - 1]!))).toBe(true)
    expect(scanned.progress.slice(0, -1).some((p) => p > 0 && p < 1)).toBe(true)
    expect(new Set(scanned.keys).size).toBe(80)
    const accents = await scanAll(caller, 'reflexion')
    expect(accents.keys.filter((k) => k.startsWith('tool:'))).toHaveLength(40)

    const indexed = await createTestDeps(deps.opencode.path)
    indexed.searchIndex.runUntilIdle()
    const viaIndex = await createCaller({ deps: indexed }).history.search({ query: 'heron', limit: 100 })
    expect(viaIndex.mode).toBe('index')
    expect(new Set(viaIndex.hits.map(key))).toEqual(new Set(scanned.keys))
    indexed.cleanup()
  })

  it('marks a prefix to the end of its token, the same text the index marks', async () => {
    const marked = (hits: SearchHit[]) => [...new Set(hits.flatMap((h) => h.snippet.filter((s) => s.match).map((s) => s.text)))].sort()
    // Every page: a page's 40 ms budget can end before it reaches these rows.
    const scanned = await scanAll(caller, 'reflex* her*')
    const indexed = await createTestDeps(deps.opencode.path)
    indexed.searchIndex.runUntilIdle()
    const viaIndex = await createCaller({ deps: indexed }).history.search({ query: 'reflex* her*', limit: 100 })
    indexed.cleanup()
    expect(viaIndex.mode).toBe('index')
    expect(marked(scanned.hits)).toEqual(['RÉFLEXION', 'heron'])
    expect(marked(viaIndex.hits)).toEqual(marked(scanned.hits))
  })

  it('pages a word found in many titles like any other hits, each session once', async () => {
    const ids = Array.from({ length: 70 }, (_, i) => addV1Session(db, { title: `Osprey survey ${i}`, time: T + i }))
    const scanned = await scanAll(caller, 'osprey')
    const titles = scanned.hits.filter((h) => h.kind === 'title')
    // scanAll holds each page to 32 hits: 70 titles take three.
    expect(scanned.pages + 1).toBeGreaterThanOrEqual(3)
    expect(titles.map((h) => h.sessionID).sort()).toEqual([...ids].sort())
  })

  it('never visits rows added after the first page (the cursor horizon)', async () => {
    let added = 0
    const scanned = await scanAll(caller, 'heron', () => {
      if (added < 3) addV1Message(db, { sessionID: session, role: 'assistant', time: Date.now(), parts: [textPart(`late heron ${added++}`)] })
    })
    expect(added).toBeGreaterThan(0)
    expect(scanned.keys).toHaveLength(80)
    const after = await scanAll(caller, 'heron')
    expect(after.keys).toHaveLength(80 + added)
  })

  it('applies scope and exclusions in the scan too', async () => {
    const scoped = await scanAll(caller, 'heron -flies')
    expect(scoped.keys.filter((k) => k.startsWith('tool:'))).toHaveLength(40)
    expect(scoped.keys.filter((k) => k.startsWith('text:')).length).toBeLessThan(4)
    const kinds = await caller.history.search({ query: 'heron', kinds: ['text'], sessionID: session })
    expect(kinds.hits.every((h) => h.kind === 'text' && h.sessionID === session)).toBe(true)
  })

  it('starts a snippet on the line of its first match, so a three-line preview shows it', async () => {
    const todos = [
      { content: `Fix the parser in lib/input.js (readInput) so that ${'quoted, escaped and multi-byte '.repeat(4)}values survive`, status: 'in_progress', priority: 'high', id: '1' },
      { content: 'Run the tests', status: 'pending', priority: 'medium', id: '2' },
    ]
    const edit = { filePath: '/srv/app/zoo.txt', oldString: Array.from({ length: 30 }, (_, i) => `animal ${i}`).join('\n') + '\nquokka', newString: '' }
    addV1Message(db, { sessionID: session, role: 'assistant', time: T + 1000, parts: [
      toolPart('todowrite', { todos }, JSON.stringify(todos, null, 2), '2 todos'),
      toolPart('edit', edit, 'Edit applied.', 'zoo.txt'),
    ] })
    // The line (of the snippet's text) its first marked piece is on, or -1 when nothing is marked.
    const firstMarkLine = (hit: SearchHit) => {
      let line = 0
      for (const s of hit.snippet) {
        if (s.match) return line
        line += s.text.split('\n').length - 1
      }
      return -1
    }
    for (const [query, tool] of [['"run the tests"', 'todowrite'], ['quokka', 'edit']] as const) {
      const hits = (await scanAll(caller, query)).hits.filter((h) => h.tool === tool)
      expect(hits, query).toHaveLength(1)
      expect(firstMarkLine(hits[0]!), JSON.stringify(hits[0]!.snippet)).toBeGreaterThanOrEqual(0)
      expect(firstMarkLine(hits[0]!), JSON.stringify(hits[0]!.snippet)).toBeLessThan(3)
    }
  })

  it('shows text for a hit found by its tool\'s name alone', async () => {
    addV1Message(db, { sessionID: session, role: 'assistant', time: T + 2000, parts: [toolPart('wombatfetch', { url: 'https://example.test' }, 'fetched 12 bytes')] })
    const hits = (await scanAll(caller, 'wombatfetch')).hits
    expect(hits).toHaveLength(1)
    expect(hits[0]!.snippet.map((s) => s.text).join('')).toContain('https://example.test')
  })

  it('binds the scan cursor to its query', async () => {
    const first = await caller.history.search({ query: 'heron' })
    await expect(caller.history.search({ query: 'egret', cursor: first.cursor! })).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it('keeps scanning with a scan cursor after the index becomes ready', async () => {
    const first = await caller.history.search({ query: 'heron' })
    deps.searchIndex.runUntilIdle()
    const next = await caller.history.search({ query: 'heron', cursor: first.cursor! })
    expect(next.mode).toBe('scan')
    expect((await caller.history.search({ query: 'heron' })).mode).toBe('index')
  })
})

import { compileIndexTerms, parseQuery, SNIPPET_SCAN_CHARS, tokenize } from '@loupe/domain'
import { generateDemoDb } from '@loupe/demo'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, TEST_NOW, type TestDeps } from '../../test/harness.js'
import { addV1Message, addV1Session, toolPart } from '../../test/search-fixtures.js'
import type { ResolvedScope } from '../features/history/history-scope.js'
import { matchFor } from '../features/history/index-search.js'
import { pageDocs, rankCandidates } from './search-index.store.js'
import { SNIPPET_WINDOW_CHARS, type SnippetWork } from './window-snippets.js'

const ALL = { min: 0, max: Number.MAX_SAFE_INTEGER }
const scope = { match: {} } as ResolvedScope
/** What anchor windows may add up to: three windows, each edge moved at most 128 characters. */
const ANCHOR_BOUND = 3 * (SNIPPET_WINDOW_CHARS + 2 * 128)
const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `line ${i}: ${word} failed`).join('\n')

describe('snippets of documents that hold the query word thousands of times', () => {
  let dir: string
  let deps: TestDeps
  const parts: Record<string, string> = {}

  beforeAll(async () => {
    dir = tempDir()
    const file = path.join(dir, 'demo.db')
    generateDemoDb(file, { now: TEST_NOW, sessions: 4, seed: 5 })
    const db = new Database(file)
    const session = addV1Session(db, { title: 'Noisy logs', time: TEST_NOW - 9000 })
    const outputs: Record<string, string> = {
      // 20,000 and 40,000 matches, both longer than JS scans, so the index marks them.
      twenty: lines(20_000, 'zebra'),
      forty: lines(40_000, 'zebra'),
      // Text whose tokens JS cannot vouch for (emoji), short enough that JS would otherwise scan it.
      emoji: `🧪 ${'zebra '.repeat(20_000)}`,
      // JS reads `все` inside every `всё` (unicode61 does not), so its anchors are all wrong; the one
      // real `все` lies 20 KB in.
      cyrillic: `${'всё '.repeat(5000)}и все работает ${'всё '.repeat(5000)}`,
    }
    for (const [name, output] of Object.entries(outputs)) {
      parts[name] = addV1Message(db, { sessionID: session, role: 'assistant', time: TEST_NOW - 8000, parts: [toolPart('bash', { command: name }, output)] }).partIDs[0]!
    }
    db.close()
    deps = await createTestDeps(file)
    deps.searchIndex.runUntilIdle()
  })
  afterAll(() => {
    deps.cleanup()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const page = (query: string) => {
    const index = deps.searchIndex.db!
    const { match } = matchFor(index, parseQuery(query), scope)
    const ids = rankCandidates(index, match!.match, ALL, 2000).ids
    const snippets = { terms: compileIndexTerms(match!.terms), highlight: match!.highlight, anyTerm: match!.anyTerm }
    const byPart = new Map(index.allSql<{ id: number; part_key: string }>(`SELECT id, part_key FROM doc`).map((r) => [r.part_key, r.id]))
    const one = (name: string) => {
      const work: SnippetWork = { windows: 0, chars: 0 }
      const docs = pageDocs(index, snippets, [byPart.get(parts[name]!)!], work)
      return { snippet: [...docs.values()][0]?.snippet ?? null, work }
    }
    return { ids, one, byPart }
  }
  const marks = (segments: Array<{ text: string; match: boolean }> | null) => segments?.filter((s) => s.match).map((s) => tokenize(s.text).join(' ')) ?? []

  it('hands FTS5 the same few windows whether the word is there 20,000 or 40,000 times', () => {
    const { one } = page('zebra')
    const twenty = one('twenty')
    const forty = one('forty')
    for (const { snippet, work } of [twenty, forty]) {
      expect(marks(snippet).length).toBeGreaterThan(0)
      expect(new Set(marks(snippet))).toEqual(new Set(['zebra']))
      expect(work.windows).toBeGreaterThanOrEqual(1)
      expect(work.chars).toBeLessThanOrEqual(ANCHOR_BOUND)
    }
    expect(forty.work).toEqual(twenty.work)
    const whole = deps.searchIndex.db!.getSql<{ n: number }>(`SELECT length(output) AS n FROM fts WHERE rowid = ?`, [page('zebra').byPart.get(parts.forty!)!])!.n
    expect(whole).toBeGreaterThan(SNIPPET_SCAN_CHARS)
    expect(forty.work.chars * 500).toBeLessThan(whole)
  })

  it('bounds the work on text JS cannot vouch for, and marks a phrase and a prefix there too', () => {
    for (const query of ['zebra', '"zebra zebra"', 'zeb*']) {
      const { snippet, work } = page(query).one('emoji')
      expect(marks(snippet).length, query).toBeGreaterThan(0)
      for (const m of marks(snippet)) expect(m.startsWith('zebra'), query).toBe(true)
      expect(work.chars, query).toBeLessThanOrEqual(ANCHOR_BOUND)
    }
  })

  it("walks the text in windows when JS's anchors show nothing the index matches", () => {
    const { snippet, work } = page('все').one('cyrillic')
    expect(marks(snippet)).toEqual(['все'])
    expect(snippet!.map((s) => s.text).join('')).toContain('работает')
    // The anchors' windows, then the walk up to the window that holds the word, not the whole text.
    expect(work.chars).toBeLessThan(ANCHOR_BOUND + 20_000 + 2 * SNIPPET_WINDOW_CHARS)
    expect(work.windows).toBeLessThan(3 + 20_000 / (SNIPPET_WINDOW_CHARS - 128) + 2)
  })

  it('answers the search with every such document, the word marked', async () => {
    const answer = await createCaller({ deps }).history.search({ query: 'zebra failed' })
    const found = answer.hits.filter((h) => h.partID === parts.twenty || h.partID === parts.forty)
    expect(found.length).toBe(2)
    for (const hit of found) expect(new Set(hit.snippet.filter((s) => s.match).map((s) => s.text.toLowerCase()))).toEqual(new Set(['zebra', 'failed']))
  })
})

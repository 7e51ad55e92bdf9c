import { compileIndexTerms, parseQuery, SNIPPET_SCAN_CHARS, tokenize } from '@loupe/domain'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { addV1Message, addV1Session, toolPart } from '../../../test/search-fixtures.js'
import { generateDemoDb } from '../../demo/demo-db.js'
import { indexSnippets, pageDocs, rankCandidates } from '../../index/search-index.store.js'
import { matchFor } from './index-search.js'
import type { ResolvedScope } from './history-scope.js'

const ALL = { min: 0, max: Number.MAX_SAFE_INTEGER }
const scope = { match: {} } as ResolvedScope
type Segments = Array<{ text: string; match: boolean }>
const markedTokens = (segments: Segments) => segments.filter((s) => s.match).map((s) => tokenize(s.text).join(' '))
/** Marks cover whole tokens: no letter or digit touches one from outside. */
const wholeTokens = (segments: Segments) => segments.every((s, i) => !s.match ||
  (!/[\p{L}\p{N}]$/u.test(segments[i - 1]?.text ?? '') && !/^[\p{L}\p{N}]/u.test(segments[i + 1]?.text ?? '')))

describe('snippets cut from stored text', () => {
  let dir: string
  let deps: TestDeps
  let overlong: string

  beforeAll(async () => {
    dir = tempDir()
    const file = path.join(dir, 'demo.db')
    generateDemoDb(file, { now: TEST_NOW, sessions: 6, seed: 11 })
    const db = new Database(file)
    const session = addV1Session(db, { title: 'Overlong output', time: TEST_NOW - 5000 })
    const output = `${'0123456789 abcdef '.repeat(Math.ceil(SNIPPET_SCAN_CHARS / 18))}\nthe quasar line\n`
    overlong = addV1Message(db, { sessionID: session, role: 'assistant', time: TEST_NOW - 4000, parts: [toolPart('bash', { command: 'dump' }, output)] }).partIDs[0]!
    db.close()
    deps = await createTestDeps(file)
    deps.searchIndex.runUntilIdle()
  })
  afterAll(() => {
    deps.cleanup()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('confirms every document the index ranks and marks the same tokens as its snippet()', () => {
    const index = deps.searchIndex.db!
    index.raw.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_words USING fts5vocab(main, 'fts', 'row')`)
    const words = index.allSql<{ term: string }>(
      `SELECT term FROM temp.fts_words WHERE doc BETWEEN 2 AND 60 AND length(term) BETWEEN 4 AND 12
         AND term NOT GLOB '*[^a-z]*' AND term NOT GLOB 'z[ktspd]*' ORDER BY doc DESC, term LIMIT 10`).map((r) => r.term)
    expect(words.length).toBe(10)
    const queries = [...words, `${words[0]!.slice(0, 3)}*`, `${words[1]} ${words[2]}`, 'the', '"of the"']
    let documents = 0
    for (const query of queries) {
      const { match } = matchFor(index, parseQuery(query), scope)
      const ids = rankCandidates(index, match!.match, ALL, 2000).ids
      const terms = compileIndexTerms(match!.terms)
      const fromText = pageDocs(index, terms, match!.highlight, ids)
      const fromIndex = indexSnippets(index, match!.highlight, ids)
      expect([...fromText.keys()].sort(), query).toEqual([...fromIndex.keys()].sort())
      const expected = new Set(match!.terms.positive.flatMap((t) => [t.tokens.join(' '), ...t.alternatives]))
      for (const [id, page] of fromText) {
        documents++
        const prefix = match!.terms.positive[0]!.kind === 'prefix' ? match!.terms.positive[0]!.tokens[0]! : null
        for (const t of markedTokens(page.snippet)) expect(expected.has(t) || (prefix !== null && t.startsWith(prefix)), `${query} #${id}: ${t}`).toBe(true)
        expect(wholeTokens(page.snippet), `${query} #${id}`).toBe(true)
        // The index marks the same tokens, wherever its passage lies.
        for (const t of markedTokens(fromIndex.get(id)!.snippet)) expect(expected.has(t) || (prefix !== null && t.startsWith(prefix)), `${query} #${id}`).toBe(true)
      }
    }
    expect(documents).toBeGreaterThan(200)
  })

  it('leaves a document longer than it scans to the index, which still finds and marks the word', async () => {
    const answer = await createCaller({ deps }).history.search({ query: 'quasar' })
    const hit = answer.hits.find((h) => h.partID === overlong)!
    expect(hit.snippet.filter((s) => s.match).map((s) => s.text)).toEqual(['quasar'])
    const index = deps.searchIndex.db!
    const { match } = matchFor(index, parseQuery('quasar'), scope)
    const id = rankCandidates(index, match!.match, ALL, 10).ids[0]!
    const row = index.getSql<{ title: string; body: string; tool: string; input: string; output: string }>(`SELECT title, body, tool, input, output FROM fts WHERE rowid = ?`, [id])!
    expect(row.output.length).toBeGreaterThan(SNIPPET_SCAN_CHARS)
    expect(compileIndexTerms(match!.terms).snippet(Object.values(row))).toBeNull()
  })

  it('drops a ranked document whose text no longer shows the word', () => {
    const index = deps.searchIndex.db!
    const { match } = matchFor(index, parseQuery('quasar'), scope)
    const ids = rankCandidates(index, match!.match, ALL, 10).ids
    expect(pageDocs(index, compileIndexTerms(match!.terms), match!.highlight, ids).size).toBe(1)
    index.runSql(`UPDATE fts SET output = 'gone' WHERE rowid = ?`, [ids[0]])
    index.runSql(`UPDATE doc SET bytes = 4 WHERE id = ?`, [ids[0]])
    expect(pageDocs(index, compileIndexTerms(match!.terms), match!.highlight, ids).size).toBe(0)
  })
})

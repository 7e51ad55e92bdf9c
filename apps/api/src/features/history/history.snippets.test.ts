import { compileIndexTerms, foldText, parseQuery, SNIPPET_SCAN_CHARS, splitMarkedSnippet, tokenize, tokensAgreeWithIndex } from '@loupe/domain'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { addV1Message, addV1Session, indexedWords, textPart, toolPart } from '../../../test/search-fixtures.js'
import { generateDemoDb } from '@loupe/demo'
import type { SqliteDb } from '../../lib/sqlite.js'
import { FTS_TOKENIZER } from '../../index/index-db.js'
import { indexSnippets, pageDocs, rankCandidates } from '../../index/search-index.store.js'
import type { FtsMatch } from '../../index/fts-query.js'
import { matchFor } from './index-search.js'
import type { ResolvedScope } from './history-scope.js'

const ALL = { min: 0, max: Number.MAX_SAFE_INTEGER }
/** A document's stored text, in the index's column order. */
const storedColumns = (index: SqliteDb, id: number) =>
  index.getSql<{ title: string; body: string; tool: string; input: string; output: string }>(`SELECT title, body, tool, input, output FROM fts WHERE rowid = ?`, [id])!
const scope = { match: {} } as ResolvedScope
const snippetQuery = (match: FtsMatch) => ({ terms: compileIndexTerms(match.terms), highlight: match.highlight, anyTerm: match.anyTerm })
/** The tokens a match may mark: its terms, their alternatives, a prefix's tokens. */
const allowedFor = (match: FtsMatch) => {
  const expected = new Set(match.terms.flatMap((t) => [t.tokens.join(' '), ...t.alternatives]))
  const prefix = match.terms[0]!.kind === 'prefix' ? match.terms[0]!.tokens[0]! : null
  return (t: string) => expected.has(t) || (prefix !== null && t.startsWith(prefix))
}
/** FTS5's own snippet() over whole documents: the reference the bounded paths are held to. */
function fts5Snippets(index: SqliteDb, highlight: string, ids: readonly number[]): Map<number, { snippet: Segments }> {
  const rows = index.allSql<{ id: number; s: string | null }>(
    `SELECT rowid AS id, snippet(fts, -1, char(57344), char(57345), '…', 24) AS s FROM fts WHERE fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    [highlight, JSON.stringify(ids)])
  return new Map(rows.filter((r) => r.s !== null).map((r) => [r.id, { snippet: splitMarkedSnippet(r.s!) }]))
}
type Segments = Array<{ text: string; match: boolean }>
const markedTokens = (segments: Segments) => segments.filter((s) => s.match).map((s) => tokenize(s.text).join(' '))
/** Marks cover whole tokens: no letter or digit touches one from outside. */
const wholeTokens = (segments: Segments) => segments.every((s, i) => !s.match ||
  (!/[\p{L}\p{N}]$/u.test(segments[i - 1]?.text ?? '') && !/^[\p{L}\p{N}]/u.test(segments[i + 1]?.text ?? '')))

describe('the characters JS tokenizes as the index does', () => {
  it('give unicode61 the same token boundaries, and tokens that follow from JS\'s, one by one over the whole BMP', () => {
    const db = new Database(':memory:')
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${FTS_TOKENIZER}'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`)
    const insert = db.prepare('INSERT INTO t(rowid, x) VALUES (?, ?)')
    const texts = new Map<number, string>()
    db.transaction(() => {
      for (let c = 1; c < 0xd800; c++) {
        const ch = String.fromCharCode(c)
        if (!tokensAgreeWithIndex(ch)) continue
        // Inside a token, between tokens, and folded at a token's start.
        texts.set(c, `q${ch}q ${ch}Q`)
        insert.run(c, texts.get(c))
      }
    })()
    const index = new Map<number, string[]>()
    for (const r of db.prepare('SELECT term, doc FROM v ORDER BY doc, offset').all() as Array<{ term: string; doc: number }>) {
      index.set(r.doc, [...(index.get(r.doc) ?? []), r.term])
    }
    // Where two texts fold alike in JS they must fold alike in the index, or JS would match where it
    // does not. (JS may keep apart what the index folds together, like `µ`/`μ`: then it only asks.)
    // Every character folds to one in JS (none vanishes or doubles, which would match text the index
    // never saw), and a vanished one would clash with `qq q`.
    const byJs = new Map<string, string>([['qq q', 'qq q']])
    const differ: string[] = []
    for (const [c, text] of texts) {
      const js = tokenize(text).join(' ')
      const fts = (index.get(c) ?? []).join(' ')
      const one = [...foldText(String.fromCharCode(c))].length === 1
      if (!one || js.split(' ').length !== fts.split(' ').length || (byJs.get(js) ?? fts) !== fts) differ.push(c.toString(16))
      if (!byJs.has(js)) byJs.set(js, fts)
    }
    expect(differ).toEqual([])
    expect(texts.size).toBeGreaterThan(1900)
    db.close()
  })
})

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
    addV1Message(db, { sessionID: session, role: 'assistant', time: TEST_NOW - 3000, parts: [textPart('Всё готово, quasar.')] })
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
    const words = indexedWords(index, { docs: [2, 60], letters: [4, 12], limit: 10 })
    expect(words.length).toBe(10)
    const queries = [...words, `${words[0]!.slice(0, 3)}*`, `${words[1]} ${words[2]}`, 'the', '"of the"']
    let documents = 0
    for (const query of queries) {
      const { match } = matchFor(index, parseQuery(query), scope)
      const ids = rankCandidates(index, match!.match, ALL, 2000).ids
      const terms = compileIndexTerms(match!.terms)
      const fromText = pageDocs(index, snippetQuery(match!), ids)
      const fromIndex = fts5Snippets(index, match!.highlight, ids)
      expect([...fromText.keys()].sort(), query).toEqual([...fromIndex.keys()].sort())
      // The bounded path the index's answers take now marks what FTS5's own snippet() marks.
      const windowed = indexSnippets(index, snippetQuery(match!), ids)
      expect([...windowed.keys()].sort(), query).toEqual([...fromIndex.keys()].sort())
      for (const [id, page] of windowed) for (const t of markedTokens(page.snippet)) expect(allowedFor(match!)(t), `${query} #${id}: ${t}`).toBe(true)
      const allowed = allowedFor(match!)
      for (const id of ids) {
        // The demo's text is ASCII: JS vouches for every document itself, never asking the index,
        // but for the one longer than it scans.
        const columns = Object.values(storedColumns(index, id))
        const own = terms.snippet(columns)
        if (columns.join('').length > SNIPPET_SCAN_CHARS) {
          expect(own).toBeNull()
          continue
        }
        expect(own, `${query} #${id}`).not.toBeNull()
        documents++
        expect(markedTokens(own!).length, `${query} #${id}`).toBeGreaterThan(0)
        for (const t of markedTokens(own!)) expect(allowed(t), `${query} #${id}: ${t}`).toBe(true)
        expect(wholeTokens(own!), `${query} #${id}`).toBe(true)
        // The index marks the same tokens, wherever its passage lies.
        for (const t of markedTokens(fromIndex.get(id)!.snippet)) expect(allowed(t), `${query} #${id}`).toBe(true)
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
    const id = index.getSql<{ id: number }>(`SELECT id FROM doc WHERE part_key = ?`, [overlong])!.id
    expect(rankCandidates(index, match!.match, ALL, 10).ids).toContain(id)
    const row = storedColumns(index, id)
    expect(row.output.length).toBeGreaterThan(SNIPPET_SCAN_CHARS)
    expect(compileIndexTerms(match!.terms).snippet(Object.values(row))).toBeNull()
  })

  it('drops a ranked document whose text no longer shows the word, in any script', () => {
    const index = deps.searchIndex.db!
    for (const [query, now] of [['quasar', 'gone'], ['всё', 'все готово']] as const) {
      const { match } = matchFor(index, parseQuery(query), scope)
      const ids = rankCandidates(index, match!.match, ALL, 10).ids
      const page = () => pageDocs(index, snippetQuery(match!), ids)
      expect(page().size, query).toBeGreaterThan(0)
      const id = ids.find((i) => page().has(i))!
      const before = index.getSql<{ body: string; output: string; bytes: number }>(`SELECT f.body, f.output, d.bytes FROM fts f JOIN doc d ON d.id = f.rowid WHERE f.rowid = ?`, [id])!
      try {
        // JS reads \`все\` in \`всё\` (NFD drops the diaeresis); unicode61 does not, and decides.
        index.runSql(`UPDATE fts SET body = ?, output = ? WHERE rowid = ?`, [before.body ? now : '', before.output ? now : '', id])
        index.runSql(`UPDATE doc SET bytes = ? WHERE id = ?`, [now.length, id])
        expect(page().has(id), query).toBe(false)
      } finally {
        index.runSql(`UPDATE fts SET body = ?, output = ? WHERE rowid = ?`, [before.body, before.output, id])
        index.runSql(`UPDATE doc SET bytes = ? WHERE id = ?`, [before.bytes, id])
      }
    }
  })
})

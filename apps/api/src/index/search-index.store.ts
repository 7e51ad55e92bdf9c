import { SNIPPET_SCAN_CHARS, type SearchKind, type SnippetSegment, type StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { chunk } from '../store/session-row.js'
import { NO_DOC_ID } from './doc-id.js'
import { quote, USER_COLUMNS, USER_FTS_COLUMNS } from './fts-query.js'
import { windowSnippet, type SnippetQuery, type SnippetWork } from './window-snippets.js'

export interface DocMeta {
  id: number
  gen: StorageGeneration
  session_id: string
  message_id: string
  part_key: string
  kind: SearchKind
  tool: string | null
  time: number
}

export interface RankedCandidates {
  /** Document ids, best first (bm25 with column weights; newer first on ties, which is the smaller id). */
  ids: number[]
  /** Their ranks (lower is better): bm25, with code-token alternatives discounted. */
  ranks: number[]
  /** More than `cap` documents matched: only the newest `cap` were ranked. */
  truncated: boolean
}

/**
 * Rank the newest `cap` matches in one walk: the newest `cap + 1` matches (lowest ids first, so a
 * very common word costs bm25 on `cap + 1` rows, not on every match), sorted by rank. The extra
 * one only tells whether the cap binds; it is the oldest of them (the highest id), and is dropped. The ranks come
 * along: any later statement that asks for bm25 pays its whole-index term counts again (5 ms for
 * a word in every document).
 */
export function rankCandidates(db: SqliteDb, match: string, range: { min: number; max: number }, cap: number): RankedCandidates {
  const rows = db.rowsSql<[number, number]>(
    `SELECT rowid, r FROM (SELECT rowid, rank AS r FROM fts WHERE fts MATCH ? AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER)
      ORDER BY rowid LIMIT ?) ORDER BY r, rowid`, [match, range.min, range.max, cap + 1])
  const truncated = rows.length > cap
  if (truncated) {
    let oldest = 0
    for (let i = 1; i < rows.length; i++) if (rows[i]![0] > rows[oldest]![0]) oldest = i
    rows.splice(oldest, 1)
  }
  return { ids: rows.map((r) => r[0]), ranks: rows.map((r) => r[1]), truncated }
}

/**
 * A code-token alternative (`encodecursor` for `cursor`) counts for this share of its bm25: the
 * word itself decides the order, so prose that says it outranks a file full of its relatives.
 */
export const EXPANSION_SHARE = 0.05

/**
 * `rankCandidates` for a match with code-token alternatives. bm25 is a sum over the query's
 * phrases, so the alternatives' part is their own bm25 on the same documents (one pass over the
 * candidates' range), and the rest of it is kept whole.
 */
export function rankDiscountingExpansions(db: SqliteDb, match: string, expansions: string, range: { min: number; max: number }, cap: number): RankedCandidates {
  const inRange = `fts MATCH ? AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER)`
  const rows = db.rowsSql<[number, number]>(`SELECT rowid, rank FROM fts WHERE ${inRange} ORDER BY rowid LIMIT ?`, [match, range.min, range.max, cap + 1])
  const truncated = rows.length > cap
  if (truncated) rows.pop()
  if (rows.length === 0) return { ids: [], ranks: [], truncated }
  const part = new Map(db.rowsSql<[number, number]>(`SELECT rowid, rank FROM fts WHERE ${inRange} AND +rowid IN (SELECT value FROM json_each(?))`,
    [expansions, rows[0]![0], rows.at(-1)![0], JSON.stringify(rows.map((r) => r[0]))]))
  const ranked = rows.map(([id, rank]): [number, number] => [id, rank - (1 - EXPANSION_SHARE) * (part.get(id) ?? 0)])
  ranked.sort((a, b) => a[1] - b[1] || a[0] - b[0])
  return { ids: ranked.map((r) => r[0]), ranks: ranked.map((r) => r[1]), truncated }
}

/** How many documents (up to `limit`) contain `term` as a whole token. */
export function countTermDocs(db: SqliteDb, term: string, limit: number): number {
  return db.getSql<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?)`, [`${USER_COLUMNS}: ${quote(term)}`, limit])!.n
}

/** How many documents (up to `limit`) in an id range a MATCH finds. */
export function countMatches(db: SqliteDb, match: string, range: { min: number; max: number }, limit: number): number {
  return db.getSql<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM fts WHERE fts MATCH ? AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER) LIMIT ?)`,
    [match, range.min, range.max, limit])!.n
}

/** The ids a MATCH finds in an id range, newest first, at most `limit`. */
export function matchingIds(db: SqliteDb, match: string, range: { min: number; max: number }, limit: number): number[] {
  return db.pluckSql<number>(`SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER) ORDER BY rowid LIMIT ?`,
    [match, range.min, range.max, limit])
}

/**
 * The tools the index holds documents of, with their counts: the `meta` column's tool tokens
 * (`zt` + hex of the name), read off FTS5's term list through a vocabulary table of this
 * connection, never stored.
 */
export function indexedTools(db: SqliteDb): Array<{ name: string; docs: number }> {
  db.runSql(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_terms USING fts5vocab(main, fts, col)`)
  const rows = db.allSql<{ term: string; doc: number }>(`SELECT term, doc FROM temp.fts_terms WHERE term >= 'zt' AND term < 'zu' AND col = 'meta'`)
  return rows.map((r) => ({ name: Buffer.from(r.term.slice(2), 'hex').toString('utf8'), docs: r.doc })).filter((t) => t.name.length > 0)
}

/** Code tokens that contain `fragment` (folded, ≥ 3 characters), shortest first. */
export function expandSubstring(db: SqliteDb, fragment: string, limit: number): { terms: string[]; truncated: boolean } {
  if ([...fragment].length < 3) return { terms: [], truncated: false }
  const probe = limit * 4
  const rows = db.allSql<{ term: string }>(`SELECT term FROM vocab_tri WHERE vocab_tri MATCH ? LIMIT ?`, [quote(fragment), probe])
  const terms = rows.map((r) => r.term).filter((t) => t !== fragment).sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
  return { terms: terms.slice(0, limit), truncated: rows.length === probe || terms.length > limit }
}

export function docMeta(db: SqliteDb, ids: readonly number[]): Map<number, DocMeta> {
  const out = new Map<number, DocMeta>()
  for (const group of chunk(ids)) {
    const rows = db.allSql<DocMeta>(
      `SELECT id, gen, session_id, message_id, part_key, kind, tool, time FROM doc WHERE id IN (${group.map(() => '?').join(',')})`, group)
    for (const r of rows) out.set(r.id, r)
  }
  return out
}

export interface PageDocs {
  meta: DocMeta
  snippet: SnippetSegment[]
}

type DocRow = DocMeta & { c0: string | null; c1: string | null; c2: string | null; c3: string | null; c4: string | null }
const docColumns = ({ c0, c1, c2, c3, c4, ...meta }: DocRow) => ({ meta, columns: [c0, c1, c2, c3, c4] })

/**
 * Each document's source and its best passage for the user's terms, as segments; documents that
 * are gone or no longer show the terms are absent. The passage is cut in JS from the stored text
 * (a few rowid reads); what JS cannot vouch for (a document over SNIPPET_SCAN_CHARS, text outside
 * the scripts whose tokens JS reproduces) asks the index. One such document costs the page the
 * index's whole pass over the ids' range.
 */
export function pageDocs(db: SqliteDb, query: SnippetQuery, ids: readonly number[], work?: SnippetWork): Map<number, PageDocs> {
  const out = new Map<number, PageDocs>()
  if (ids.length === 0) return out
  const rows = db.allSql<DocRow>(
    `SELECT d.id, d.gen, d.session_id, d.message_id, d.part_key, d.kind, d.tool, d.time,
            ${USER_FTS_COLUMNS.map((c, i) => `CASE WHEN d.bytes <= ${SNIPPET_SCAN_CHARS} THEN f.${c} END AS c${i}`).join(', ')}
       FROM doc d JOIN fts f ON f.rowid = d.id WHERE d.id IN (SELECT value FROM json_each(?))`, [JSON.stringify(ids)])
  const ask: number[] = []
  for (const row of rows) {
    const { meta, columns } = docColumns(row)
    const snippet = query.terms.snippet(columns)
    if (snippet) out.set(meta.id, { meta, snippet })
    else ask.push(meta.id)
  }
  for (const [id, page] of indexSnippets(db, query, ask, work)) out.set(id, page)
  return out
}

/**
 * `ids` that still match `highlight`, each with a passage the index's tokenizer marks, in bounded
 * work (window-snippets.ts). One pass over the matches between the lowest and highest id: a rowid
 * lookup per document costs about as much as ranking. The unary `+` keeps SQLite from driving the
 * query by the id list.
 */
export function indexSnippets(db: SqliteDb, query: SnippetQuery, ids: readonly number[], work?: SnippetWork): Map<number, PageDocs> {
  const out = new Map<number, PageDocs>()
  if (ids.length === 0) return out
  const rows = db.allSql<DocRow>(
    `SELECT d.id, d.gen, d.session_id, d.message_id, d.part_key, d.kind, d.tool, d.time, ${USER_FTS_COLUMNS.map((c, i) => `fts.${c} AS c${i}`).join(', ')}
       FROM fts JOIN doc d ON d.id = fts.rowid
      WHERE fts MATCH ? AND fts.rowid >= CAST(? AS INTEGER) AND fts.rowid <= CAST(? AS INTEGER) AND +fts.rowid IN (SELECT value FROM json_each(?))`,
    [query.highlight, Math.min(...ids), Math.max(...ids), JSON.stringify(ids)])
  for (const row of rows) {
    const { meta, columns } = docColumns(row)
    out.set(meta.id, { meta, snippet: windowSnippet(db, query, columns, 24, work) })
  }
  return out
}

/** The newest document's id (the smallest; doc-id.ts): a search's horizon. */
export const newestDocId = (db: SqliteDb) => db.getSql<{ m: number | null }>(`SELECT min(id) AS m FROM doc`)!.m ?? NO_DOC_ID

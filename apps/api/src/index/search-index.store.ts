import { splitMarkedSnippet, type SearchKind, type SnippetSegment, type StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { chunk } from '../store/session-row.js'
import { quote } from './fts-query.js'

/** Document ids are `time_ms * 4096 + slot`. */
export const idFloorForTime = (ms: number) => Math.max(0, Math.floor(ms)) * 4096
export const idCeilForTime = (ms: number) => (Math.floor(ms) + 1) * 4096 - 1

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
  /** Document ids, best first (bm25 with column weights; newer first on ties). */
  ids: number[]
  /** More than `cap` documents matched: only the newest `cap` were ranked. */
  truncated: boolean
}

export interface PageDoc {
  snippet: SnippetSegment[]
  /** bm25 (lower is better). */
  rank: number
}

const USER_COLUMNS = '{title body tool input output}'

/**
 * Rank the newest `cap` matches. A capped count finds whether the cap binds; if it does, the
 * cap-th newest match (a rowid-only walk, O(cap)) bounds the range, so ranking a very common word
 * costs bm25 on `cap` rows, not on every match.
 */
export function rankCandidates(db: SqliteDb, match: string, range: { min: number; max: number }, cap: number): RankedCandidates {
  const inRange = `fts MATCH ? AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER)`
  const params = [match, range.min, range.max]
  const probe = db.getSql<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM fts WHERE ${inRange} LIMIT ?)`, [...params, cap + 1])!.n
  let min = range.min
  if (probe > cap) {
    min = db.getSql<{ id: number }>(`SELECT rowid AS id FROM fts WHERE ${inRange} ORDER BY rowid DESC LIMIT 1 OFFSET ?`, [...params, cap - 1])!.id
  }
  // Ids only (plucked): materializing thousands of row objects costs more than ranking them.
  const ids = db.raw.prepare(`SELECT rowid FROM fts WHERE ${inRange} ORDER BY rank, rowid DESC`).pluck().all(match, min, range.max) as number[]
  return { ids, truncated: probe > cap }
}

/** How many documents (up to `limit`) contain `term` as a whole token. */
export function countTermDocs(db: SqliteDb, term: string, limit: number): number {
  return db.getSql<{ n: number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?)`, [`${USER_COLUMNS}: ${quote(term)}`, limit])!.n
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

/**
 * The best passage of each document for the user's terms, as segments, with its bm25; documents that no longer
 * match are absent. One pass over the matches between the lowest and highest id: a rowid lookup
 * per document costs about as much as ranking, so snippets are never fetched one by one. The
 * unary `+` keeps SQLite from driving the query by the id list.
 */
export function snippetsOf(db: SqliteDb, highlight: string, ids: readonly number[], tokens = 24): Map<number, PageDoc> {
  const out = new Map<number, PageDoc>()
  if (ids.length === 0) return out
  const rows = db.allSql<{ id: number; s: string | null; r: number }>(
    `SELECT rowid AS id, snippet(fts, -1, char(57344), char(57345), '…', ?) AS s, rank AS r FROM fts
      WHERE fts MATCH ? AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER) AND +rowid IN (SELECT value FROM json_each(?))`,
    [tokens, highlight, Math.min(...ids), Math.max(...ids), JSON.stringify(ids)])
  for (const r of rows) if (r.s != null) out.set(r.id, { snippet: splitMarkedSnippet(r.s), rank: r.r })
  return out
}

export const maxDocId = (db: SqliteDb) => db.getSql<{ m: number | null }>(`SELECT max(id) AS m FROM doc`)!.m ?? 0

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
  /** bm25 per id (lower is better), in the same order. */
  ranks: number[]
  /** More than `cap` documents matched: only the newest `cap` were ranked. */
  truncated: boolean
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
  const rows = db.allSql<{ id: number; r: number }>(
    `SELECT rowid AS id, rank AS r FROM fts WHERE ${inRange} ORDER BY r, id DESC`, [match, min, range.max])
  return { ids: rows.map((r) => r.id), ranks: rows.map((r) => r.r), truncated: probe > cap }
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

/** The best passage of one document for the user's terms, as segments; null when it no longer matches. */
export function snippetOf(db: SqliteDb, highlight: string, id: number, tokens = 24): SnippetSegment[] | null {
  const row = db.getSql<{ s: string | null }>(
    `SELECT snippet(fts, -1, char(57344), char(57345), '…', ?) AS s FROM fts WHERE fts MATCH ? AND rowid = CAST(? AS INTEGER)`, [tokens, highlight, id])
  return row?.s == null ? null : splitMarkedSnippet(row.s)
}

export const maxDocId = (db: SqliteDb) => db.getSql<{ m: number | null }>(`SELECT max(id) AS m FROM doc`)!.m ?? 0

import { fromMatchLine, mergeSegments, splitMarkedSnippet, type CompiledIndexTerms, type SnippetSegment } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { FTS_TOKENIZER } from './index-db.js'

/** What a page's snippets are cut and marked with (fts-query.ts's FtsMatch). */
export interface SnippetQuery {
  terms: CompiledIndexTerms
  /** The user's terms over the user columns: a document still matches. */
  highlight: string
  /** Any one of them, unscoped: a window shows a match. */
  anyTerm: string
}

/**
 * The most text FTS5's snippet() is given at once. snippet() scores a passage at every match
 * against every other match of the row, so its work grows with the square of the matches: on a
 * whole tool output holding a word 20,000 times it took seconds. A window this long holds at most
 * half as many matches as characters, whatever the document.
 */
export const SNIPPET_WINDOW_CHARS = 1024
/** How far a window's edge moves to fall between tokens (after an ASCII separator). */
const EDGE_SLACK = 128
/** Windows around this many of JS's anchors are tried first. */
const ANCHORS = 3
/** Failing those, each column is walked in windows from its start, this far at most. */
export const SNIPPET_WALK_CHARS = 256 * 1024
const WALK_BATCH = 8

/** The work snippets took (counted, for tests and benches): windows handed to FTS5 and their characters. */
export interface SnippetWork {
  windows: number
  chars: number
}

interface Window {
  text: string
  column: string
  start: number
  end: number
  /** An edge cut inside a run of token characters: a match touching it may be a piece of a token. */
  hardStart: boolean
  hardEnd: boolean
}

// unicode61 separates tokens at every ASCII character but letters and digits, whatever the script around it.
const isAsciiSeparator = (code: number) => code < 0x80 && !((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122))

function cutWindow(column: string, from: number, to: number): Window {
  let start = from
  while (start > 0 && from - start < EDGE_SLACK && !isAsciiSeparator(column.charCodeAt(start - 1))) start--
  const hardStart = start > 0 && !isAsciiSeparator(column.charCodeAt(start - 1))
  if (hardStart) start = from - (/[\uDC00-\uDFFF]/.test(column[from] ?? '') ? 1 : 0)
  let end = to
  while (end < column.length && end - to < EDGE_SLACK && !isAsciiSeparator(column.charCodeAt(end))) end++
  const hardEnd = end < column.length && !isAsciiSeparator(column.charCodeAt(end))
  if (hardEnd) end = to + (/[\uDC00-\uDFFF]/.test(column[to] ?? '') ? 1 : 0)
  return { text: column.slice(start, end), column, start, end, hardStart, hardEnd }
}

/** Windows around JS's best anchors: where the user's terms most likely are. */
function anchorWindows(terms: CompiledIndexTerms, columns: ReadonlyArray<string | null>): Window[] {
  return terms.anchors(columns, ANCHORS).map(({ column, start }) => {
    const text = columns[column]!
    const from = Math.max(0, start - SNIPPET_WINDOW_CHARS / 2)
    return cutWindow(text, from, Math.min(text.length, from + SNIPPET_WINDOW_CHARS))
  })
}

/** Consecutive windows over the columns in order, SNIPPET_WALK_CHARS in all. */
function walkWindows(columns: ReadonlyArray<string | null>): Window[] {
  const out: Window[] = []
  let left = SNIPPET_WALK_CHARS
  for (const text of columns) {
    for (let at = 0; text && at < text.length && left > 0; ) {
      const w = cutWindow(text, at, Math.min(text.length, at + SNIPPET_WINDOW_CHARS))
      out.push(w)
      left -= w.end - at
      at = Math.max(w.end, at + 1)
    }
  }
  return out
}

/** The first of `windows` (in order) in which the index's tokenizer finds one of the terms, with its snippet. */
function firstMarked(db: SqliteDb, anyTerm: string, windows: Window[], tokens: number, work?: SnippetWork): { window: Window; marked: string } | null {
  if (windows.length === 0) return null
  db.runSql(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.snippet_window USING fts5(x, tokenize='${FTS_TOKENIZER}')`)
  db.runSql(`DELETE FROM temp.snippet_window`)
  windows.forEach((w, i) => db.runSql(`INSERT INTO temp.snippet_window(rowid, x) VALUES (?, ?)`, [i + 1, w.text]))
  if (work) {
    work.windows += windows.length
    work.chars += windows.reduce((n, w) => n + w.text.length, 0)
  }
  // Matches come in rowid order, and snippet() is computed for the one row returned.
  const row = db.getSql<{ id: number; s: string }>(
    `SELECT rowid AS id, snippet(snippet_window, 0, char(57344), char(57345), '…', ?) AS s FROM temp.snippet_window WHERE snippet_window MATCH ? ORDER BY rowid LIMIT 1`,
    [tokens, anyTerm])
  db.runSql(`DELETE FROM temp.snippet_window`)
  return row ? { window: windows[row.id - 1]!, marked: row.s } : null
}

/** The window's snippet as segments: a mark on a hard edge unmarked, '…' where the column goes on. */
function segmentsOf(window: Window, marked: string): SnippetSegment[] {
  const segments = splitMarkedSnippet(marked)
  const first = segments[0]
  const last = segments.at(-1)
  if (window.hardStart && first?.match) first.match = false
  if (window.hardEnd && last?.match) last.match = false
  if (window.start > 0 && !first?.text.startsWith('…')) segments.unshift({ text: '…', match: false })
  if (window.end < window.column.length && !last?.text.endsWith('…')) segments.push({ text: '…', match: false })
  return fromMatchLine(mergeSegments(segments))
}

/**
 * The passage of a document the index matches, marked by the index's own tokenizer, in bounded
 * work: FTS5's snippet() over windows of at most SNIPPET_WINDOW_CHARS around where JS finds the
 * terms, or (JS reading the text otherwise than unicode61) over the first SNIPPET_WALK_CHARS of
 * the columns; past that, the document's start unmarked.
 */
export function windowSnippet(db: SqliteDb, query: SnippetQuery, columns: ReadonlyArray<string | null>, tokens = 24, work?: SnippetWork): SnippetSegment[] {
  let found = firstMarked(db, query.anyTerm, anchorWindows(query.terms, columns), tokens, work)
  const walk = found ? [] : walkWindows(columns)
  // A few windows at a time: the walk stops at the first that shows a match.
  for (let i = 0; !found && i < walk.length; i += WALK_BATCH) found = firstMarked(db, query.anyTerm, walk.slice(i, i + WALK_BATCH), tokens, work)
  if (found) return segmentsOf(found.window, found.marked)
  const text = columns.find((c) => c) ?? ''
  const head = cutWindow(text, 0, Math.min(text.length, SNIPPET_WINDOW_CHARS / 4))
  return head.end < text.length ? [{ text: head.text, match: false }, { text: '…', match: false }] : [{ text: head.text, match: false }]
}

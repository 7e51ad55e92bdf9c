import { foldText, tokenize, type ParsedQuery, type QueryTerm } from './query.js'
import { isTokenChar } from './search-doc.js'
import { escapeRegex, foldForMatch, markRanges, mergeSegments, originalRange, TOKEN_CLASS as T, type SnippetSegment } from './search-match.js'

/** A query term as the index matches it: folded tokens in order, plus whole-token alternatives. */
export interface IndexTerm {
  kind: QueryTerm['kind']
  tokens: string[]
  /** Code tokens that also count as this word (`pr1137` for `1137`), folded. */
  alternatives: string[]
  /** What the index is given (the term as typed, the alternatives as stored), before JS folds it. */
  source: string[]
}

/**
 * The positive terms of a parsed query for `compileIndexTerms`; `expansions[i]` are word i's
 * code-token alternatives. Exclusions are left out: a page's documents passed them when ranked.
 */
export function indexTerms(query: ParsedQuery, expansions: ReadonlyMap<number, readonly string[]> = new Map()): IndexTerm[] {
  const out: IndexTerm[] = []
  query.terms.forEach((term, i) => {
    const tokens = tokenize(term.text)
    if (term.negated || tokens.length === 0) return
    const raw = term.kind === 'word' ? [...(expansions.get(i) ?? [])] : []
    out.push({ kind: term.kind, tokens, alternatives: raw.map(foldText), source: [term.text, ...raw] })
  })
  return out
}

/**
 * Characters on which JS's tokens decide the index's (unicode61, `remove_diacritics 2`), checked
 * one by one against SQLite in history.snippets.test: where JS matches, the index matches too.
 * ASCII; Latin letters but ten (`ǡ`, `ǣ`, `ǯ`, `ǽ`, `ǿ` and their capitals, which JS folds to a
 * plain letter and unicode61 keeps); punctuation, currency, arrow, math, box-drawing, symbol and
 * dingbat blocks as old as its Unicode 6.1 tables. Elsewhere JS can match where the index does
 * not (Cyrillic `ё` read as `е`, Indic vowel signs, Hangul, combining marks, and characters newer
 * than 6.1 such as most emoji or `₽`, which unicode61 reads as letters).
 */
// eslint-disable-next-line no-control-regex
const AGREED = /^[\x00-\x7F\u00A0-\u01DF\u01E4-\u01ED\u01F0-\u01FB\u0200-\u024F\u1E00-\u1EFF\u2000-\u205F\u20A0-\u20B9\u2190-\u22FF\u2500-\u26FF\u2701-\u27BF]*$/

/** True when JS's tokens of `text` decide the index's (see AGREED). */
export const tokensAgreeWithIndex = (text: string) => AGREED.test(text)

const HAS_TOKEN = new RegExp(`[${T}]`, 'u')

/**
 * Whole tokens, as the index's tokenizer (unicode61) sees them: the term's tokens in order with
 * any separators between, a prefix running to its token's end, or one of the alternatives.
 */
function termSource(term: IndexTerm): string {
  const body = term.tokens.map(escapeRegex).join(`[^${T}]+`)
  const own = `(?<![${T}])${body}${term.kind === 'prefix' ? `[${T}]*` : `(?![${T}])`}`
  if (term.alternatives.length === 0) return own
  return `${own}|(?<![${T}])(?:${term.alternatives.map(escapeRegex).join('|')})(?![${T}])`
}

interface Hit {
  start: number
  end: number
  term: number
}

/** Documents longer than this (all columns) are left to the index's own snippet: bounded work per page. */
export const SNIPPET_SCAN_CHARS = 256 * 1024
const HITS_PER_COLUMN = 256
const WINDOW_CHARS = 480

export interface CompiledIndexTerms {
  /**
   * Best passage for the query among `columns` (in the index's column order), with its matches
   * marked; null when the columns do not show every term as whole tokens, or hold text whose
   * tokens JS cannot vouch for (the caller then asks the index, whose answer is authoritative).
   */
  snippet(columns: ReadonlyArray<string | null>, tokens?: number): SnippetSegment[] | null
  /**
   * Where the best passages are, best first, at most one a column and `limit` in all, whatever the
   * text's script or length (the caller lets the index confirm and mark a window around each).
   * Bounded: at most HITS_PER_COLUMN matches are looked at in a column.
   */
  anchors(columns: ReadonlyArray<string | null>, limit?: number): SnippetAnchor[]
}

/** A passage's anchor: the match in `column` (the index's column order) that starts at `start`. */
export interface SnippetAnchor {
  column: number
  start: number
}

interface ColumnHits {
  column: number
  text: string
  folded: string
  hits: Hit[]
  distinct: number
}

/**
 * Snippets cut in JS from a document's stored text: what FTS5's snippet() gives, without
 * re-running the match over the whole index and tokenizing every column of every document.
 */
export function compileIndexTerms(terms: readonly IndexTerm[]): CompiledIndexTerms {
  // Checked on what the index is given: JS folding `ǡb` to `ab` or `login🧪bug` to two words says
  // nothing about how unicode61 reads them.
  const agreed = terms.length > 0 && terms.every((t) => t.source.every(tokensAgreeWithIndex))
  // Longest first, so a phrase is marked whole where a word of it also matches (`login "login bug"`).
  const order = terms.map((_, i) => i).sort((a, b) => terms[b]!.tokens.join(' ').length - terms[a]!.tokens.join(' ').length)
  const all = new RegExp(order.map((i) => `(${termSource(terms[i]!)})`).join('|'), 'gu')
  const each = terms.map((t) => new RegExp(termSource(t), 'u'))
  // The first HITS_PER_COLUMN matches of each column, as original ranges.
  const scan = (columns: ReadonlyArray<string | null>): ColumnHits[] => {
    const out: ColumnHits[] = []
    columns.forEach((text, column) => {
      if (!text) return
      const f = foldForMatch(text)
      const hits: Hit[] = []
      for (const m of f.folded.matchAll(all)) {
        if (m[0].length === 0) continue
        const term = order[m.findIndex((g, i) => i > 0 && g !== undefined) - 1]!
        const [start, end] = f.origin ? originalRange(text, f.origin, m.index, m.index + m[0].length) : [m.index, m.index + m[0].length]
        hits.push({ start, end, term })
        if (hits.length === HITS_PER_COLUMN) break
      }
      out.push({ column, text, folded: f.folded, hits, distinct: new Set(hits.map((h) => h.term)).size })
    })
    return out
  }
  const better = (a: ColumnHits, b: ColumnHits) => b.distinct - a.distinct || b.hits.length - a.hits.length || a.column - b.column
  return {
    snippet(columns, tokens = 24) {
      if (!agreed || columns.some((c) => c && (c.length > SNIPPET_SCAN_CHARS || !tokensAgreeWithIndex(c)))) return null
      const scanned = scan(columns)
      const matched = scanned.filter((c) => c.hits.length > 0)
      const seen = new Set(matched.flatMap((c) => c.hits.map((h) => h.term)))
      // A term hidden by an overlapping match of another (`auth*` and `authentication`) is looked for alone.
      const present = each.every((r, i) => seen.has(i) || scanned.some((c) => r.test(c.folded)))
      const best = matched.sort(better)[0]
      if (!best || !present) return null
      const cut = passage(best.text, best.hits, tokens)
      return matched.length === 1 && best.text.length <= SHORT_FIELD_CHARS ? withContext(cut, best.text, columns) : cut
    },
    anchors(columns, limit = 3) {
      return scan(columns).filter((c) => c.hits.length > 0).sort(better).slice(0, limit)
        .map((c) => ({ column: c.column, start: bestAnchor(c.hits).start }))
    },
  }
}

/** A match in this short a field alone (a tool's name) says little: the document's other text follows it. */
const SHORT_FIELD_CHARS = 64
const CONTEXT_CHARS = 160

/**
 * `cut`, then the first line of the first other column with more than one word (a tool call's
 * title or input; a bare name such as the tool's says nothing more).
 */
function withContext(cut: SnippetSegment[], matched: string, columns: ReadonlyArray<string | null>): SnippetSegment[] {
  const other = columns.find((c) => c && c !== matched && /\s/.test(c.trim()))
  if (!other) return cut
  const line = other.trim().split('\n', 1)[0]!
  const text = line.length > CONTEXT_CHARS ? `${line.slice(0, CONTEXT_CHARS)}…` : line
  return [...cut, { text: ` · ${text}`, match: false }]
}

/** The hit with the most distinct terms in the half window after it (among the first 64). */
function bestAnchor(hits: Hit[]): Hit {
  let anchor = hits[0]!
  let most = 0
  for (let i = 0; i < Math.min(hits.length, 64); i++) {
    const near = new Set<number>()
    for (let j = i; j < hits.length && hits[j]!.start < hits[i]!.start + WINDOW_CHARS / 2; j++) near.add(hits[j]!.term)
    if (near.size > most) [anchor, most] = [hits[i]!, near.size]
  }
  return anchor
}

/** The window of `tokens` tokens around the hit with the most distinct terms near it, as segments. */
function passage(text: string, hits: Hit[], tokens: number): SnippetSegment[] {
  const anchor = bestAnchor(hits)
  // About half the window before the anchor (as FTS5 centres its hits), the rest from it on. The
  // context before it stays on the anchor's line: a preview shows three lines, and a passage
  // starting lines above its match (a Markdown list) would hide the match.
  const lead = Math.floor((tokens - 1) / 2)
  const lineStart = text.lastIndexOf('\n', anchor.start - 1) + 1
  const [first, taken] = tokensBack(text, anchor.start, lead, lineStart)
  // A line shown from its first token keeps a short lead-in before it (`<type>`, `- `, `## `), but
  // not a run of indentation or box drawing that would push the match out of the preview.
  let start = taken < lead && first - lineStart <= 16 ? lineStart : first
  // A prefix can match a whole base64 run: the mark is cut too, and '…' says the token goes on.
  const anchorEnd = Math.min(anchor.end, anchor.start + WINDOW_CHARS)
  let end = Math.max(tokensForward(text, anchor.start, Math.max(1, tokens - taken)), anchorEnd)
  // Long tokens (hashes, paths) keep the passage short: context is trimmed around the anchor.
  if (end - start > WINDOW_CHARS) {
    start = Math.max(start, anchor.start - WINDOW_CHARS / 4)
    end = Math.min(end, start + WINDOW_CHARS)
  }
  // The last token keeps the punctuation after it (`(none)`), as FTS5 does; elsewhere '…' says more follows.
  const more = HAS_TOKEN.test(text.slice(end))
  if (!more) end = Math.min(text.length, end + 64, Math.max(end, start + WINDOW_CHARS))
  const segments = markRanges(text, hits.map((h): [number, number] => [h.start, h.end]), start, end)
  if (HAS_TOKEN.test(text.slice(0, start))) segments.unshift({ text: '…', match: false })
  if (more) segments.push({ text: '…', match: false })
  return mergeSegments(segments)
}

/** The start of the `count`th token before `from` (within WINDOW_CHARS, not before `floor`), and how many were found. */
function tokensBack(text: string, from: number, count: number, floor: number): [number, number] {
  let at = from
  let found = 0
  for (let i = from - 1; i >= Math.max(floor, from - WINDOW_CHARS) && found < count; i--) {
    if (isTokenChar(text, i) && (i === floor || !isTokenChar(text, i - 1))) {
      found++
      at = i
    }
  }
  return [at, found]
}

/** The end of the `count`th token from `from` on (within 4 × WINDOW_CHARS). */
function tokensForward(text: string, from: number, count: number): number {
  let at = from
  let found = 0
  const limit = Math.min(text.length, from + 4 * WINDOW_CHARS)
  for (let i = from; i < limit && found < count; i++) {
    if (isTokenChar(text, i) && (i + 1 === text.length || !isTokenChar(text, i + 1))) {
      found++
      at = i + 1
    }
  }
  return at
}

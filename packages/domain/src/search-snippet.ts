import { foldText, tokenize, type ParsedQuery, type QueryTerm } from './query.js'
import { foldForMatch, mergeSegments, originalRange, type SnippetSegment } from './search-match.js'

/** A query term as the index matches it: folded tokens in order, plus whole-token alternatives. */
export interface IndexTerm {
  kind: QueryTerm['kind']
  tokens: string[]
  /** Code tokens that also count as this word (`pr1137` for `1137`), folded. */
  alternatives: string[]
}

export interface IndexTerms {
  positive: IndexTerm[]
  negative: IndexTerm[]
}

/** The terms of a parsed query for `indexSnippet`; `expansions[i]` are word i's code-token alternatives. */
export function indexTerms(query: ParsedQuery, expansions: ReadonlyMap<number, readonly string[]> = new Map()): IndexTerms {
  const out: IndexTerms = { positive: [], negative: [] }
  query.terms.forEach((term, i) => {
    const tokens = tokenize(term.text)
    if (tokens.length === 0) return
    const alternatives = term.kind === 'word' ? (expansions.get(i) ?? []).map(foldText) : []
    ;(term.negated ? out.negative : out.positive).push({ kind: term.kind, tokens, alternatives })
  })
  return out
}

const T = '\\p{L}\\p{N}\\p{Co}'
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
// Window edges count runs of letters, digits and marks as tokens (an accent never splits one).
const TOKEN_CHAR = /^[\p{L}\p{N}\p{Co}\p{M}]/u
const HAS_TOKEN = /[\p{L}\p{N}\p{Co}]/u

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

/** Columns longer than this are left to the index's own snippet (bounded work per document). */
export const SNIPPET_SCAN_CHARS = 256 * 1024
const HITS_PER_COLUMN = 256
const WINDOW_CHARS = 480

export interface CompiledIndexTerms {
  /**
   * Best passage for the query among `columns` (in the index's column order), with its matches
   * marked; null when the columns do not show every positive term and no negative one as whole
   * tokens (the caller then asks the index, whose answer is authoritative).
   */
  snippet(columns: ReadonlyArray<string | null>, tokens?: number): SnippetSegment[] | null
}

/**
 * Snippets cut in JS from a document's stored text: what FTS5's snippet() gives, without
 * re-running the match over the whole index and tokenizing every column of every document.
 */
export function compileIndexTerms(terms: IndexTerms): CompiledIndexTerms {
  const all = terms.positive.length ? new RegExp(terms.positive.map((t) => `(${termSource(t)})`).join('|'), 'gu') : null
  const each = terms.positive.map((t) => new RegExp(termSource(t), 'u'))
  const negative = terms.negative.map((t) => new RegExp(termSource(t), 'u'))
  return {
    snippet(columns, tokens = 24) {
      if (!all) return null
      const seen = new Set<number>()
      let best: { column: number; text: string; hits: Hit[]; distinct: number } | null = null
      const folded: string[] = []
      for (let c = 0; c < columns.length; c++) {
        const text = columns[c]
        if (!text) continue
        if (text.length > SNIPPET_SCAN_CHARS) return null
        const f = foldForMatch(text)
        folded.push(f.folded)
        const hits: Hit[] = []
        for (const m of f.folded.matchAll(all)) {
          if (m[0].length === 0) continue
          const term = m.findIndex((g, i) => i > 0 && g !== undefined) - 1
          const [start, end] = f.origin ? originalRange(text, f.origin, m.index, m.index + m[0].length) : [m.index, m.index + m[0].length]
          hits.push({ start, end, term })
          seen.add(term)
          if (hits.length === HITS_PER_COLUMN) break
        }
        const distinct = new Set(hits.map((h) => h.term)).size
        if (hits.length && (!best || distinct > best.distinct || (distinct === best.distinct && hits.length > best.hits.length))) {
          best = { column: c, text, hits, distinct }
        }
      }
      // A term hidden by an overlapping match of another (`auth*` and `authentication`) is looked for alone.
      const present = each.every((r, i) => seen.has(i) || folded.some((f) => r.test(f)))
      if (!best || !present || negative.some((r) => folded.some((f) => r.test(f)))) return null
      return passage(best.text, best.hits, tokens)
    },
  }
}

/** The window of `tokens` tokens around the hit with the most distinct terms near it, as segments. */
function passage(text: string, hits: Hit[], tokens: number): SnippetSegment[] {
  let anchor = hits[0]!
  let most = 0
  for (let i = 0; i < Math.min(hits.length, 64); i++) {
    const near = new Set<number>()
    for (let j = i; j < hits.length && hits[j]!.start < hits[i]!.start + WINDOW_CHARS / 2; j++) near.add(hits[j]!.term)
    if (near.size > most) [anchor, most] = [hits[i]!, near.size]
  }
  // About half the window before the anchor (as FTS5 centres its hits), the rest from it on. The
  // context before it stays on the anchor's line: a preview shows three lines, and a passage
  // starting lines above its match (a Markdown list) would hide the match.
  const lead = Math.floor((tokens - 1) / 2)
  const lineStart = text.lastIndexOf('\n', anchor.start - 1) + 1
  const [first, taken] = tokensBack(text, anchor.start, lead, lineStart)
  let start = first
  let end = tokensForward(text, anchor.start, Math.max(1, tokens - taken))
  end = Math.max(end, anchor.end)
  // Long tokens (hashes, paths) keep the passage short: context is trimmed around the anchor.
  if (end - start > WINDOW_CHARS) {
    start = Math.max(start, anchor.start - WINDOW_CHARS / 4)
    end = Math.min(end, Math.max(anchor.end, start + WINDOW_CHARS))
  }
  start = wholeChar(text, start)
  end = wholeChar(text, end)
  const segments: SnippetSegment[] = []
  if (HAS_TOKEN.test(text.slice(0, start))) segments.push({ text: '…', match: false })
  let at = start
  for (const h of hits) {
    if (h.end <= at || h.start >= end) continue
    if (h.start > at) segments.push({ text: text.slice(at, h.start), match: false })
    const to = Math.min(h.end, end)
    segments.push({ text: text.slice(Math.max(h.start, at), to), match: true })
    at = to
  }
  // The last token keeps the punctuation after it (`(none)`), as FTS5 does; elsewhere '…' says more follows.
  const more = HAS_TOKEN.test(text.slice(end))
  if (!more) end = Math.min(text.length, end + 64)
  if (at < end) segments.push({ text: text.slice(at, end), match: false })
  if (more) segments.push({ text: '…', match: false })
  return mergeSegments(segments)
}

const isTokenChar = (text: string, i: number) => {
  const c = text.charCodeAt(i)
  if (c < 0x80) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
  // Both halves of a surrogate pair answer for their whole character.
  if (c >= 0xd800 && c <= 0xdbff) return TOKEN_CHAR.test(text.slice(i, i + 2))
  if (c >= 0xdc00 && c <= 0xdfff) return TOKEN_CHAR.test(text.slice(i - 1, i + 1))
  return TOKEN_CHAR.test(text[i]!)
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

/** Never cut a surrogate pair. */
const wholeChar = (text: string, at: number) => (at > 0 && at < text.length && /[\uDC00-\uDFFF]/.test(text[at]!) ? at - 1 : at)

import { foldText, tokenize, type ParsedQuery, type QueryTerm } from './query.js'

/** A piece of a snippet; `match` pieces are highlighted. Rendered as text, never as HTML. */
export interface SnippetSegment {
  text: string
  match: boolean
}

/** The index marks matches with these private-use characters, which extraction strips from content. */
export const SNIPPET_OPEN = '\uE000'
export const SNIPPET_CLOSE = '\uE001'

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** The index tokenizer's token characters, as a regex class body (letters, digits, private use). */
export const TOKEN_CLASS = '\\p{L}\\p{N}\\p{Co}'
const SEP = `[^${TOKEN_CLASS}]+`
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/
const MARK = /\p{M}/u

/** Words shorter than this match whole tokens only, as in the index (it never looks inside code tokens for them). */
export const MIN_INNER_WORD_CHARS = 3

/** A folded-text regex for one term: its tokens in order, separated by any non-token run. */
function termPattern(term: QueryTerm): string {
  const tokens = tokenize(term.text)
  const body = tokens.map(escapeRegex).join(SEP)
  // A prefix must start a token; a word may sit anywhere, inside a code token too (`1137` in
  // `pr1137`), unless it is too short to be looked for there (`c` is not every c of every word).
  if (term.kind === 'prefix') return `(?<![${TOKEN_CLASS}])${body}`
  if (term.kind === 'word' && tokens.length === 1 && [...tokens[0]!].length < MIN_INNER_WORD_CHARS) return `(?<![${TOKEN_CLASS}])${body}(?![${TOKEN_CLASS}])`
  return body
}

/**
 * What to mark for one term: its match, a prefix's run on to the end of its token (`paginat*`
 * marks `pagination`), as the index's snippets mark it, so a hit's transcript and the result
 * list show the same words. Only marks use it: the optional run never decides a match.
 */
function markPattern(term: QueryTerm): string {
  return term.kind === 'prefix' ? `${termPattern(term)}[${TOKEN_CLASS}]*` : termPattern(term)
}

export interface LiteralMatcher {
  /** True when folded `text` satisfies the query: every positive term present, no negated one. */
  test(folded: string): boolean
  /**
   * Ranges of positive-term matches in `text` (original, unfolded), in order; at most `limit`.
   * A prefix's range runs to the end of the token it starts.
   */
  ranges(text: string, limit?: number): Array<[number, number]>
}

/** The design's literal match (case- and accent-insensitive substring) for a parsed query. */
export function compileLiteralMatcher(query: ParsedQuery): LiteralMatcher {
  const positive = query.terms.filter((t) => !t.negated).map((t) => new RegExp(termPattern(t), 'u'))
  const negative = query.terms.filter((t) => t.negated).map((t) => new RegExp(termPattern(t), 'u'))
  const any = positive.length
    ? new RegExp(query.terms.filter((t) => !t.negated).map(markPattern).join('|'), 'gu')
    : null
  return {
    test: (folded) => positive.length > 0 && positive.every((r) => r.test(folded)) && !negative.some((r) => r.test(folded)),
    ranges(text, limit = Infinity) {
      if (!any) return []
      const { folded, origin } = foldForMatch(text)
      const out: Array<[number, number]> = []
      for (const m of folded.matchAll(any)) {
        if (m[0].length === 0) continue
        if (out.length === limit) break
        if (!origin) {
          out.push([m.index, m.index + m[0].length])
          continue
        }
        out.push(originalRange(text, origin, m.index, m.index + m[0].length))
      }
      return out
    },
  }
}

/** Folded text, and where each folded unit came from (null: one for one, as for ASCII). */
export interface FoldedText {
  folded: string
  origin: number[] | null
}

/** Fold `text` for matching. ASCII folds to itself, one unit for one: no map to build (tool output is mostly ASCII). */
export function foldForMatch(text: string): FoldedText {
  return ASCII.test(text) ? { folded: text.toLowerCase(), origin: null } : foldWithMap(text)
}

/**
 * The original range of folded units [from, to): it ends with the whole character its last unit
 * came from (a surrogate pair too) and the accents folding dropped after it (`e` + U+0301).
 */
export function originalRange(text: string, origin: number[], from: number, to: number): [number, number] {
  const last = origin[to - 1]!
  let end = last + (text.codePointAt(last)! > 0xffff ? 2 : 1)
  while (end < text.length && MARK.test(text[end]!)) end++
  return [origin[from]!, end]
}

/** Fold character by character, remembering where each folded unit came from; ASCII characters directly. */
function foldWithMap(text: string): FoldedText {
  let folded = ''
  const origin: number[] = []
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i)
    if (code < 0x80) {
      folded += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i]
      origin.push(i++)
      continue
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!)
    const f = foldText(ch)
    folded += f
    for (let k = 0; k < f.length; k++) origin.push(i)
    i += ch.length
  }
  return { folded, origin }
}

/**
 * A bounded excerpt around the first match: from `before` characters ahead of it but not before
 * its line, `length` characters long, with the matches inside marked. No match gives the text's start.
 */
export function excerptSegments(text: string, matcher: LiteralMatcher, before = 80, length = 320): SnippetSegment[] {
  const window = text.length > 64 * 1024 ? text.slice(0, 64 * 1024) : text
  const ranges = matcher.ranges(window)
  const first = ranges[0]?.[0] ?? 0
  // A preview shows three lines: context from lines above the match (a tool input's earlier
  // values, one per line) would push it out, so '…' stands for them, as fromMatchLine does.
  const line = first > 0 ? window.lastIndexOf('\n', first - 1) + 1 : 0
  let start = Math.max(line, first - before)
  if (start > 0 && /[\uDC00-\uDFFF]/.test(window[start]!)) start--
  const end = Math.min(window.length, start + length)
  const segments = markRanges(window, ranges, start, end)
  if (start > 0) segments.unshift({ text: '…', match: false })
  if (end < text.length) segments.push({ text: '…', match: false })
  return mergeSegments(segments)
}

/** `text[start, end)` as segments, with the parts inside `ranges` (in order) marked. */
export function markRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>, start: number, end: number): SnippetSegment[] {
  const segments: SnippetSegment[] = []
  let at = start
  for (const [s, e] of ranges) {
    if (e <= at || s >= end) continue
    const from = Math.max(s, at)
    if (from > at) segments.push({ text: text.slice(at, from), match: false })
    const to = Math.min(e, end)
    segments.push({ text: text.slice(from, to), match: true })
    at = to
  }
  if (at < end) segments.push({ text: text.slice(at, end), match: false })
  return segments
}

/**
 * Drop whole lines before the first match's line (an ellipsis says so): a three-line preview of
 * a passage that starts lines above its match (a Markdown list) would not show the match.
 */
export function fromMatchLine(segments: SnippetSegment[]): SnippetSegment[] {
  const first = segments.findIndex((s) => s.match)
  for (let i = first - 1; i >= 0; i--) {
    const nl = segments[i]!.text.lastIndexOf('\n')
    if (nl < 0) continue
    return mergeSegments([{ text: '…', match: false }, { text: segments[i]!.text.slice(nl + 1), match: false }, ...segments.slice(i + 1)])
  }
  return segments
}

/** Split a snippet the index marked with SNIPPET_OPEN/SNIPPET_CLOSE into segments. */
export function splitMarkedSnippet(marked: string): SnippetSegment[] {
  const segments: SnippetSegment[] = []
  let match = false
  let buffer = ''
  for (const ch of marked) {
    if (ch === SNIPPET_OPEN || ch === SNIPPET_CLOSE) {
      if (buffer) segments.push({ text: buffer, match })
      buffer = ''
      match = ch === SNIPPET_OPEN
    } else buffer += ch
  }
  if (buffer) segments.push({ text: buffer, match })
  return mergeSegments(segments)
}

/** Join neighbours of the same kind and drop empty pieces. */
export function mergeSegments(segments: SnippetSegment[]): SnippetSegment[] {
  const out: SnippetSegment[] = []
  for (const s of segments) {
    if (!s.text) continue
    const last = out.at(-1)
    if (last && last.match === s.match) last.text += s.text
    else out.push({ ...s })
  }
  return out
}

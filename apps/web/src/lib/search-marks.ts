import { compileLiteralMatcher, parseQuery, type LiteralMatcher } from '@loupe/domain'
import { runRange, textRuns, type TextRun } from './text-runs'

/** The marks inside a hit's part; a title hit's marks in the session's title are kept apart. */
export const HIT_MARKS = 'loupe-hit'
export const TITLE_MARKS = 'loupe-title-hit'
/** Enough to show where a search landed; a part quoting the word thousands of times stays cheap. */
const MAX_MARKS = 500
/** Characters of one text searched (the matcher folds a copy of non-ASCII text as it reads). */
export const MAX_SEARCHED_CHARS = 256 * 1024

const canHighlight = () => typeof Highlight !== 'undefined' && typeof CSS !== 'undefined' && 'highlights' in CSS

/**
 * Find a search's matches inside `root`, in document order, and mark them through the CSS Custom
 * Highlight API (styled by `::highlight(loupe-hit)`, or `name`'s). Nothing in the DOM changes, so
 * the nodes Solid renders stay its own; a browser without the API still gets the ranges, to scroll to.
 */
export function markMatches(root: Element, query: string, name = HIT_MARKS): Range[] {
  const matcher = compileLiteralMatcher(parseQuery(query))
  const ranges: Range[] = []
  for (const run of textRuns(root, MAX_SEARCHED_CHARS)) {
    if (ranges.length === MAX_MARKS) break
    for (const [start, end] of runMatches(matcher, run, MAX_MARKS - ranges.length)) ranges.push(runRange(run, start, end))
  }
  if (canHighlight()) CSS.highlights.set(name, new Highlight(...ranges))
  return ranges
}

/**
 * A run's matches, in order. The index read the raw text, where markup such as `**` both joins
 * (a phrase across `foo **bar** baz`) and separates (`**foo**bar` holds the token `bar`): matches
 * of the joined text come first, then those of single nodes that overlap none of them.
 */
function runMatches(matcher: LiteralMatcher, run: TextRun, limit: number): Array<[number, number]> {
  const joined = matcher.ranges(run.text, limit)
  if (run.nodes.length === 1) return joined
  const alone = run.nodes.flatMap((node, i) => {
    const at = run.starts[i]!
    return matcher.ranges(run.text.slice(at, at + node.data.length), limit).map(([s, e]): [number, number] => [at + s, at + e])
  })
  const free = alone.filter(([s, e]) => !joined.some(([js, je]) => s < je && js < e))
  return [...joined, ...free].sort((a, b) => a[0] - b[0]).slice(0, limit)
}

export function clearMarks(name = HIT_MARKS) {
  if (canHighlight()) CSS.highlights.delete(name)
}

/**
 * How much of clipped text to show first for a search that led here: `cut`, or enough to hold
 * the first match and `cut / 2` after it. "Show all" still has the rest of a long output.
 */
export function revealCut(text: string, query: string, cut: number): number {
  if (text.length <= cut) return cut
  const first = compileLiteralMatcher(parseQuery(query)).ranges(text.slice(0, MAX_SEARCHED_CHARS), 1)[0]
  // A prefix's match runs to its token's end, and a token can be a whole base64 run: past
  // `cut / 2` of it, the rest waits for "Show all" like any other long output.
  const end = first && Math.min(first[1], first[0] + Math.floor(cut / 2))
  return end && end > cut ? end + Math.floor(cut / 2) : cut
}

import { compileLiteralMatcher, parseQuery } from '@loupe/domain'

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
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode() as Text | null; node && ranges.length < MAX_MARKS; node = walker.nextNode() as Text | null) {
    for (const [start, end] of matcher.ranges(node.data.slice(0, MAX_SEARCHED_CHARS), MAX_MARKS - ranges.length)) {
      const range = document.createRange()
      range.setStart(node, start)
      range.setEnd(node, end)
      ranges.push(range)
    }
  }
  if (canHighlight()) CSS.highlights.set(name, new Highlight(...ranges))
  return ranges
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

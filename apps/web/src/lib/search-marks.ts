import { compileLiteralMatcher, parseQuery } from '@loupe/domain'

const NAME = 'loupe-hit'
/** Enough to show where a search landed; a part quoting the word thousands of times stays cheap. */
const MAX_MARKS = 500
/** Characters of one text node searched (the matcher folds a copy of what it reads). */
const MAX_NODE_CHARS = 256 * 1024

const supported = () => typeof Highlight !== 'undefined' && typeof CSS !== 'undefined' && 'highlights' in CSS

/**
 * Mark a search's matches inside `root` through the CSS Custom Highlight API (styled by
 * `::highlight(loupe-hit)`). Nothing in the DOM changes, so the nodes Solid renders stay its own.
 * Returns the first mark, or undefined (no match, or a browser without the API).
 */
export function markMatches(root: Element, query: string): Range | undefined {
  if (!supported()) return undefined
  const matcher = compileLiteralMatcher(parseQuery(query))
  const ranges: Range[] = []
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode() as Text | null; node && ranges.length < MAX_MARKS; node = walker.nextNode() as Text | null) {
    for (const [start, end] of matcher.ranges(node.data.slice(0, MAX_NODE_CHARS))) {
      const range = document.createRange()
      range.setStart(node, start)
      range.setEnd(node, end)
      ranges.push(range)
    }
  }
  CSS.highlights.set(NAME, new Highlight(...ranges.slice(0, MAX_MARKS)))
  return ranges[0]
}

export function clearMarks() {
  if (supported()) CSS.highlights.delete(NAME)
}

/** True when clipped text should start whole: the query's first match in it lies past the cut. */
export function matchPastCut(text: string, query: string, cut: number): boolean {
  if (text.length <= cut) return false
  const first = compileLiteralMatcher(parseQuery(query)).ranges(text.slice(0, MAX_NODE_CHARS))[0]
  return first !== undefined && first[1] > cut
}

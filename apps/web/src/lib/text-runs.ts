/**
 * Text as a reader sees it inside one block: the text nodes that only inline markup separates
 * (`foo <strong>bar</strong> baz`, `paginat<code>e</code>`), joined. The index reads a part's raw
 * text, where markdown's `**` or backticks are no boundary, so a phrase or a token it matched
 * runs across such nodes in the transcript too.
 */
export interface TextRun {
  text: string
  nodes: Text[]
  /** Where each node's text starts in `text`. */
  starts: number[]
}

// Inline by display, yet a break between the words on either side.
const BREAKS = new Set(['BR', 'IMG', 'HR', 'INPUT', 'BUTTON', 'SELECT', 'TEXTAREA', 'svg', 'IFRAME', 'VIDEO', 'AUDIO', 'CANVAS', 'WBR'])
// What counts as inline where no style is computed (an element outside the document).
const INLINE_TAGS = new Set(['A', 'ABBR', 'B', 'BDI', 'BDO', 'CITE', 'CODE', 'DATA', 'DEL', 'DFN', 'EM', 'I', 'INS', 'KBD', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME', 'U', 'VAR'])

/** The text runs under `root`, in document order; each holds at most about `maxChars`. */
export function textRuns(root: Element, maxChars = Infinity): TextRun[] {
  const view = root.ownerDocument.defaultView
  const inline = new Map<Element, boolean>()
  const isInline = (el: Element): boolean => {
    let known = inline.get(el)
    if (known === undefined) {
      const display = view?.getComputedStyle(el).display ?? ''
      known = !BREAKS.has(el.tagName) && (display === '' ? INLINE_TAGS.has(el.tagName) : display === 'inline' || display === 'contents')
      inline.set(el, known)
    }
    return known
  }
  const blockOf = (node: Node): Element => {
    let el = node.parentElement
    while (el && el !== root && isInline(el)) el = el.parentElement
    return el ?? root
  }
  const runs: TextRun[] = []
  let run: TextRun | null = null
  let block: Element | null = null
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType !== Node.TEXT_NODE) {
      if (!isInline(node as Element)) run = null
      continue
    }
    const text = node as Text
    const at = blockOf(text)
    if (!run || at !== block || run.text.length >= maxChars) {
      run = { text: '', nodes: [], starts: [] }
      runs.push(run)
      block = at
    }
    run.starts.push(run.text.length)
    run.nodes.push(text)
    run.text += text.data.slice(0, Math.max(0, maxChars - run.text.length))
  }
  return runs
}

/** A DOM range over `run.text`'s [start, end): it may begin in one node and end in another. */
export function runRange(run: TextRun, start: number, end: number): Range {
  const range = (run.nodes[0]!.ownerDocument).createRange()
  const first = nodeAt(run, start, false)
  const last = nodeAt(run, end, true)
  range.setStart(run.nodes[first]!, start - run.starts[first]!)
  range.setEnd(run.nodes[last]!, end - run.starts[last]!)
  return range
}

/** The node holding offset `at`; an end offset on a boundary belongs to the node before it. */
function nodeAt(run: TextRun, at: number, isEnd: boolean): number {
  let lo = 0
  let hi = run.starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    const s = run.starts[mid]!
    if (s < at || (!isEnd && s === at)) lo = mid
    else hi = mid - 1
  }
  return lo
}

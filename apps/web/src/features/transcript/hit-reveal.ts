import { clearMarks, markMatches } from '../../lib/search-marks'
import { planMatch, planReveal, type Span } from './reveal-plan'
import { partEl, revealMessage } from './scroll-anchor'

/** Where the URL opens a transcript: a message, one of its parts, and the search that led there. */
export interface TranscriptTarget {
  m?: string
  part?: string
  hl?: string
}

/**
 * Scroll to a message, or to one of its parts from its header (reveal-plan.ts). With a search,
 * mark its matches in the part and bring them into sight: every box that scrolls on its own (a
 * long tool output) to its first match, then the transcript to the first match inside such a
 * box, else to the first match. A match in the tool's summary line or input would otherwise
 * leave the output's own match out of sight.
 */
export function revealTarget(scroller: HTMLElement, m: string, target: TranscriptTarget): boolean {
  clearMarks()
  const el = target.part ? partEl(scroller, m, target.part) : null
  if (!el) return revealMessage(scroller, m)
  const ranges = target.hl ? markMatches(el, target.hl) : []
  const boxes = new Set<HTMLElement>()
  let deep: Range | undefined
  for (const range of ranges) {
    const box = scrollBox(range, el)
    if (!box || boxes.has(box)) continue
    boxes.add(box)
    box.scrollTop += planMatch(visibleBand(box), range.getBoundingClientRect())
    deep ??= range
  }
  const first = deep ?? ranges[0]
  // The transcript scrolls on its own under the session's header, tabs and savings bar: its top
  // edge is where they end. Scrolling it directly leaves the page around it where it is.
  scroller.scrollTop += planReveal(visibleBand(scroller), el.getBoundingClientRect(), first?.getBoundingClientRect())
  return true
}

/** The nearest element between a range and `root` that scrolls on its own, if any. */
function scrollBox(range: Range, root: Element): HTMLElement | null {
  for (let el = range.startContainer.parentElement; el && el !== root; el = el.parentElement) {
    if (el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY)) return el
  }
  return null
}

/** What a scrolling element shows, in viewport pixels (inside its border). */
function visibleBand(el: HTMLElement): Span {
  return { top: el.getBoundingClientRect().top + el.clientTop, height: el.clientHeight }
}

import { clearMarks, markMatches } from '../../lib/search-marks'
import { partEl, revealMessage } from './scroll-anchor'

/** Where the URL opens a transcript: a message, one of its parts, and the search that led there. */
export interface TranscriptTarget {
  m?: string
  part?: string
  hl?: string
}

/**
 * Scroll to a message (and part). With a search, mark its matches in the part and bring them into
 * sight: every box that scrolls on its own (a long tool output) to its first match, then the
 * transcript to the first match inside such a box, else to the first match. A match in the
 * tool's summary line or input would otherwise leave the output's own match out of sight.
 */
export function revealTarget(scroller: HTMLElement, m: string, target: TranscriptTarget): boolean {
  clearMarks()
  if (!revealMessage(scroller, m, target.part)) return false
  const el = target.part && target.hl ? partEl(scroller, m, target.part) : null
  if (!el || !target.hl) return true
  const ranges = markMatches(el, target.hl)
  const boxes = new Set<HTMLElement>()
  let deep: Range | undefined
  for (const range of ranges) {
    const box = scrollBox(range, el)
    if (!box || boxes.has(box)) continue
    boxes.add(box)
    bringIntoView(box, range)
    deep ??= range
  }
  const first = deep ?? ranges[0]
  if (first) bringIntoView(scroller, first)
  return true
}

/** The nearest element between a range and `root` that scrolls on its own, if any. */
function scrollBox(range: Range, root: Element): HTMLElement | null {
  for (let el = range.startContainer.parentElement; el && el !== root; el = el.parentElement) {
    if (el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY)) return el
  }
  return null
}

/** Scroll `box` so that the range sits in its middle, unless it is already in sight there. */
function bringIntoView(box: HTMLElement, range: Range) {
  const view = box.getBoundingClientRect()
  const rect = range.getBoundingClientRect()
  if (rect.top >= view.top && rect.bottom <= view.bottom) return
  box.scrollTop += rect.top - view.top - box.clientHeight / 2
}

/** A vertical stretch in viewport pixels: a scroller's visible band, a part, a match. */
export interface Span {
  top: number
  height: number
}

/** Least room between the scroller's top edge (the bars above it end there) and a header or match. */
export const GAP_PX = 12
/** Room above a part that fits, so its message's role line (about 36 px) shows above it. */
export const CONTEXT_PX = 48
/** A match closer than this to the bottom edge reads as cut off, not found. */
export const COMFORT_PX = 40

/**
 * How far to scroll (positive: down) so that `match` sits well inside `view`: 0 when it already
 * does, else it goes a third of the way down, where the eye lands and lines before it still show.
 */
export function planMatch(view: Span, match: Span): number {
  const top = match.top - view.top
  if (top >= GAP_PX && top + match.height <= view.height - COMFORT_PX) return 0
  return top - view.height / 3
}

/**
 * How far to scroll so that an opened part reads from its header: a part that fits shows whole,
 * its header just under the top edge (any match inside is then well in view); a taller one keeps
 * its header at the top while its first match still shows well, else the match goes a third down.
 */
export function planReveal(view: Span, part: Span, match?: Span): number {
  const room = view.height - part.height - COMFORT_PX
  const fits = room >= GAP_PX
  const toHeader = part.top - view.top - (fits ? Math.min(CONTEXT_PX, room) : GAP_PX)
  if (!match || fits) return toHeader
  return toHeader + planMatch(view, { top: match.top - toHeader, height: match.height })
}

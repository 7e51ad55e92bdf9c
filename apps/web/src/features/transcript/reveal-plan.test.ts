import { describe, expect, it } from 'vitest'
import { COMFORT_PX, CONTEXT_PX, GAP_PX, planMatch, planReveal, type Span } from './reveal-plan'

/** Where a span lands, relative to the view's top edge, after scrolling by `delta`. */
const after = (view: Span, span: Span, delta: number) => span.top - delta - view.top

// The transcript's band at 1280×800 and at 390×844 (under the header, tabs and savings bar).
const wide = { top: 232, height: 568 }
const phone = { top: 309, height: 535 }

describe('planMatch', () => {
  it.each([
    ['well inside', { top: 400, height: 18 }, 0],
    ['at the bottom edge', { top: 775, height: 18 }, 775 - 232 - 568 / 3],
    ['under the bar above the view', { top: 230, height: 18 }, 230 - 232 - 568 / 3],
    ['far below', { top: 2000, height: 18 }, 2000 - 232 - 568 / 3],
  ])('moves a match %s to a third of the view, or leaves it', (_, match, delta) => {
    expect(planMatch(wide, match)).toBeCloseTo(delta)
  })
})

describe('planReveal', () => {
  it('puts a part that fits just under the top edge, with its role line above it', () => {
    const part = { top: 383, height: 265 }
    expect(after(wide, part, planReveal(wide, part, { top: 608, height: 18 }))).toBe(CONTEXT_PX)
  })

  it('shrinks the room above a part that only just fits, so its last match stays clear of the bottom', () => {
    const part = { top: 900, height: 500 }
    const delta = planReveal(wide, part, { top: 1380, height: 18 })
    expect(after(wide, part, delta)).toBe(wide.height - part.height - COMFORT_PX)
    expect(after(wide, { top: 1380, height: 18 }, delta) + 18).toBeLessThanOrEqual(wide.height - COMFORT_PX)
  })

  it('keeps a tall part\'s header at the top when its first match shows well there', () => {
    const part = { top: -13, height: 649 }
    const match = { top: 200, height: 18 }
    expect(after(phone, part, planReveal(phone, part, match))).toBe(GAP_PX)
  })

  it('brings a tall part\'s first match a third of the way down when the header would hide it', () => {
    const part = { top: -13, height: 649 }
    const match = { top: 576, height: 18 }
    expect(after(phone, match, planReveal(phone, part, match))).toBeCloseTo(phone.height / 3)
  })

  it('shows a tall part from its header when no search marked it', () => {
    const part = { top: 1000, height: 2000 }
    expect(after(phone, part, planReveal(phone, part))).toBe(GAP_PX)
  })
})

import { isValidId } from '../../lib/links'

export interface ScrollAnchor {
  id: string
  /** Pixels from the scroller's top edge to the message's top edge. */
  offset: number
}

const messageEl = (scroller: HTMLElement, id: string) =>
  isValidId(id) ? scroller.querySelector<HTMLElement>(`[data-message-id="${id}"]`) : null

/** One part of a rendered message (`data-part`), or null. */
export function partEl(scroller: HTMLElement, id: string, part: string): HTMLElement | null {
  const el = messageEl(scroller, id)
  return el ? ([...el.querySelectorAll<HTMLElement>('[data-part]')].find((p) => p.dataset.part === part) ?? null) : null
}

/** The first message at least partly visible, and where it sits. */
export function captureAnchor(scroller: HTMLElement): ScrollAnchor | undefined {
  const top = scroller.getBoundingClientRect().top
  for (const el of scroller.querySelectorAll<HTMLElement>('[data-message-id]')) {
    const rect = el.getBoundingClientRect()
    if (rect.bottom > top + 1) return { id: el.dataset.messageId ?? '', offset: rect.top - top }
  }
  return undefined
}

/** Put the anchored message back where it was after pages were added or dropped above it. */
export function restoreAnchor(scroller: HTMLElement, anchor: ScrollAnchor | undefined) {
  if (!anchor) return
  const el = messageEl(scroller, anchor.id)
  if (!el) return
  const top = scroller.getBoundingClientRect().top
  scroller.scrollTop += el.getBoundingClientRect().top - top - anchor.offset
}

/** Scroll a message into view; false when it is not rendered. */
export function revealMessage(scroller: HTMLElement, id: string, block: ScrollLogicalPosition = 'start'): boolean {
  const el = messageEl(scroller, id)
  if (!el) return false
  el.scrollIntoView({ block })
  return true
}

/** Whether a message (or, given one, its part) shows at least partly in the scroller's viewport. */
export function isInView(scroller: HTMLElement, id: string, part?: string): boolean {
  const target = part ? partEl(scroller, id, part) : messageEl(scroller, id)
  if (!target) return false
  const view = scroller.getBoundingClientRect()
  const rect = target.getBoundingClientRect()
  return rect.bottom > view.top + 1 && rect.top < view.bottom - 1
}

export const distanceToBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight

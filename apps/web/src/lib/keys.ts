import { onCleanup } from 'solid-js'

/** Keys typed into a field, or with a modifier, belong to the field or the browser, not to Loupe. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  return target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT'
}

/**
 * Whether a key such as Enter is a list's to take: nothing has the focus, or one of the list's
 * rows (`row`, a selector) has it. A focused button or link does its own job with it.
 */
export function listHasFocus(target: EventTarget | null, row: string): boolean {
  return target === document.body || (target instanceof Element && target.closest(row) !== null)
}

export interface KeyOptions {
  /**
   * Also receive keys typed into this one field (a page's own search box). Every other field keeps
   * its keys: ArrowDown in a menu must change the menu, not the page.
   */
  field?: () => Element | undefined
}

/**
 * Listen to keydown on the document for the owner's lifetime. Events already handled, typed with
 * Ctrl/Meta/Alt, or sent while a dialog is open are skipped, so modals own their keys.
 */
export function useKeys(handler: (event: KeyboardEvent) => void, options: KeyOptions = {}) {
  const listener = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return
    const target = event.target
    // A modal owns every key while it is open, even when its focused control was re-rendered away
    // and the focus fell to the page's body (Esc must close the dialog only, not leave the page).
    if (document.querySelector('dialog[open]')) return
    if (isTypingTarget(target) && target !== options.field?.()) return
    handler(event)
  }
  document.addEventListener('keydown', listener)
  onCleanup(() => document.removeEventListener('keydown', listener))
}

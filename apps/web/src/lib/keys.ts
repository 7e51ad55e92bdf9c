import { onCleanup } from 'solid-js'

/** Keys typed into a field, or with a modifier, belong to the field or the browser, not to Loupe. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  return target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT'
}

export interface KeyOptions {
  /** Also receive keys typed into fields (for Escape in a search box). */
  inFields?: boolean
}

/**
 * Listen to keydown on the document for the owner's lifetime. Events already handled, typed with
 * Ctrl/Meta/Alt, or aimed at an open dialog are skipped, so modals own their keys.
 */
export function useKeys(handler: (event: KeyboardEvent) => void, options: KeyOptions = {}) {
  const listener = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return
    const target = event.target
    if (target instanceof Element && target.closest('dialog[open]')) return
    if (!options.inFields && isTypingTarget(target)) return
    handler(event)
  }
  document.addEventListener('keydown', listener)
  onCleanup(() => document.removeEventListener('keydown', listener))
}

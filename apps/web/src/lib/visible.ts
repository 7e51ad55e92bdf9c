import { onCleanup } from 'solid-js'

/** Call `onVisible` whenever `el` comes within `margin` of the viewport (no-op without IntersectionObserver). */
export function observeVisible(el: Element, onVisible: () => void, margin = '400px') {
  if (typeof IntersectionObserver === 'undefined') return
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) onVisible()
  }, { rootMargin: margin })
  observer.observe(el)
  onCleanup(() => observer.disconnect())
}

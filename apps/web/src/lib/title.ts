import { createEffect, onCleanup } from 'solid-js'

/** Keep the tab title in step with the page, so bookmarks and history read well. */
export function useTitle(title: () => string | undefined) {
  createEffect(() => {
    const text = title()
    document.title = text ? `${text} · Loupe` : 'Loupe'
  })
  onCleanup(() => {
    document.title = 'Loupe'
  })
}

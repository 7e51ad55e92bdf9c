import { createSignal, onMount, Show } from 'solid-js'
import { CleanDialog } from './clean-dialog'

/** The Storage page's entry to the DB-wide retention clean-up. */
export function CleanSection(props: { writable: boolean; onDone: () => void }) {
  const [open, setOpen] = createSignal(false)
  let section: HTMLElement | undefined
  // The Overview links here as /storage#clean-up; the page renders after the browser looked for the anchor.
  onMount(() => {
    if (location.hash === '#clean-up') section?.scrollIntoView({ block: 'start' })
  })
  return (
    <section class="reclaim" id="clean-up" ref={section} aria-label="Clean up old sessions">
      <h2>Clean up old sessions</h2>
      <p class="muted small">Remove the tool calls and reasoning of sessions nobody has touched for a while, across every project; you review the list first.</p>
      <div class="reclaim-actions">
        <button type="button" class="button" disabled={!props.writable} onClick={() => setOpen(true)}>Clean up old sessions…</button>
      </div>
      <Show when={open()}>
        <CleanDialog onClose={() => setOpen(false)} onDone={props.onDone} />
      </Show>
    </section>
  )
}

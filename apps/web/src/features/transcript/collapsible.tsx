import { createSignal, Show, type JSX, type ParentProps } from 'solid-js'

export interface CollapsibleProps {
  /** The always-visible row; clicking it toggles the body. */
  summary: JSX.Element
  class?: string
  initiallyOpen?: boolean
}

/** A disclosure row whose body is only rendered while open, so collapsed outputs cost no DOM. */
export function Collapsible(props: ParentProps<CollapsibleProps>) {
  const [open, setOpen] = createSignal(props.initiallyOpen ?? false)
  return (
    <div class={`collapsible ${props.class ?? ''}`} classList={{ open: open() }}>
      <button type="button" class="collapsible-summary" aria-expanded={open()} onClick={() => setOpen(!open())}>
        <svg class="chevron" viewBox="0 0 16 16" aria-hidden="true">
          <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" />
        </svg>
        {props.summary}
      </button>
      <Show when={open()}>
        <div class="collapsible-body">{props.children}</div>
      </Show>
    </div>
  )
}

import { createMemo, createSignal, Show } from 'solid-js'
import { formatBytes, utf8Length } from '../../lib/format'
import { revealCut } from '../../lib/search-marks'

export interface ClippedTextProps {
  text: string
  /** Characters shown before "Show all". */
  limit?: number
  class?: string
  /** A search that led here: when its first match lies past the cut, the cut moves past it. */
  reveal?: string
}

/** Preformatted text cut at `limit` characters with a button for the rest; tool output can be megabytes. */
export function ClippedText(props: ClippedTextProps) {
  const [all, setAll] = createSignal(false)
  const limit = createMemo(() => (props.reveal ? revealCut(props.text, props.reveal, props.limit ?? 4000) : props.limit ?? 4000))
  const clipped = () => !all() && props.text.length > limit()
  return (
    <div class={`clipped ${props.class ?? ''}`}>
      <pre>{clipped() ? props.text.slice(0, limit()) : props.text}</pre>
      <Show when={clipped()}>
        <button type="button" class="link-button show-all" onClick={() => setAll(true)}>
          Show all ({formatBytes(utf8Length(props.text))}, {(props.text.length - limit()).toLocaleString()} more characters)
        </button>
      </Show>
    </div>
  )
}

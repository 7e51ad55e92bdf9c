import { createMemo, Show } from 'solid-js'
import { ClippedText } from './clipped-text'
import { parseReadOutput } from './tools/tool-shapes'
import { FileView } from './tools/tool-views'

/**
 * Context OpenCode added to a user message. An @-attached file arrives as the `read` tool's
 * output (`<path>`, `<content>` with numbered lines), so it is shown as that file; anything else
 * keeps its line breaks as written, since it is not Markdown a person wrote.
 */
export function SyntheticText(props: { text: string; query?: string }) {
  const file = createMemo(() => parseReadOutput(props.text))
  return (
    <Show when={file()} fallback={<ClippedText text={props.text} class="code-block synthetic" reveal={props.query} />}>
      {(f) => <FileView file={f().file} lines={f().lines} note={f().note} query={props.query} />}
    </Show>
  )
}

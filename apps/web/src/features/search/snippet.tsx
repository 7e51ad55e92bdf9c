import { For } from 'solid-js'

export interface SnippetSegment {
  text: string
  match: boolean
}

/** Blank lines and leading indentation say nothing in a three-line preview. */
export function tidySegments(segments: readonly SnippetSegment[]): SnippetSegment[] {
  const out = segments.map((s) => ({ ...s, text: s.text.replace(/\n[ \t]*(?:\n[ \t]*)+/g, '\n') }))
  if (out[0]) out[0].text = out[0].text.replace(/^\s+/, '')
  const last = out.at(-1)
  if (last) last.text = last.text.replace(/\s+$/, '')
  return out.filter((s) => s.text)
}

/** A search snippet: matched pieces in <mark>, everything as text nodes (never HTML). */
export function Snippet(props: { segments: SnippetSegment[]; class?: string }) {
  return (
    <span class={props.class ?? 'snippet'}>
      <For each={tidySegments(props.segments)}>{(s) => (s.match ? <mark>{s.text}</mark> : <>{s.text}</>)}</For>
    </span>
  )
}

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

/**
 * Markdown's marks that the transcript renders away (`**bold**`, `` `code` ``, `### heading`,
 * `> quote`), dropped from a prose snippet so it reads like the text it leads to; a phrase's
 * matched piece may hold some too (it matched across them). `__` and single `*` stay
 * (`__init__`, `a * b`).
 */
export function plainProse(segments: readonly SnippetSegment[]): SnippetSegment[] {
  return segments.map((s, i) => ({
    ...s,
    text: s.text.replace(/\*\*|`/g, '').replace(i === 0 ? /(^|\n)[ \t]*(?:#{1,6}|>)[ \t]+/g : /(\n)[ \t]*(?:#{1,6}|>)[ \t]+/g, '$1'),
  }))
}

/** A search snippet: matched pieces in <mark>, everything as text nodes (never HTML). */
export function Snippet(props: { segments: SnippetSegment[]; class?: string; prose?: boolean }) {
  return (
    <span class={props.class ?? 'snippet'}>
      <For each={tidySegments(props.prose ? plainProse(props.segments) : props.segments)}>{(s) => (s.match ? <mark>{s.text}</mark> : <>{s.text}</>)}</For>
    </span>
  )
}

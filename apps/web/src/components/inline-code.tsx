import { For } from 'solid-js'

/** Plain text where `backticked` spans render as code; no markup is ever interpreted. */
export function InlineCode(props: { text: string }) {
  const pieces = () => props.text.split('`')
  return <For each={pieces()}>{(piece, i) => (i() % 2 === 1 ? <code>{piece}</code> : piece)}</For>
}

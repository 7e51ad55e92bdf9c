import { For } from 'solid-js'

// A flag or short command reads as one token: a line break at its hyphen (`--opencode-`/`url`) misleads.
// Longer spans (a whole command line) may still wrap, so a phone never scrolls sideways.
const UNBROKEN_CHARS = 40

/** Plain text where `backticked` spans render as code; no markup is ever interpreted. */
export function InlineCode(props: { text: string }) {
  const pieces = () => props.text.split('`')
  return (
    <For each={pieces()}>
      {(piece, i) => (i() % 2 === 1 ? <code classList={{ 'code-unbroken': piece.length <= UNBROKEN_CHARS }}>{piece}</code> : piece)}
    </For>
  )
}

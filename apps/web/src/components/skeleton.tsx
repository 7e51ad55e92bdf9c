import { For } from 'solid-js'

/** Placeholder rows while the first page loads, so the layout does not jump. */
export function ListSkeleton(props: { rows: number }) {
  return (
    <div class="skeleton-list" aria-hidden="true">
      <For each={Array.from({ length: props.rows }, (_, i) => i)}>
        {(i) => <div class="skeleton-row" style={{ '--w': `${40 + ((i * 37) % 45)}%` }} />}
      </For>
    </div>
  )
}

import { Show, type JSX, type ParentProps } from 'solid-js'

export interface EmptyStateProps {
  title: string
  /** A short symbol shown above the title. */
  icon?: JSX.Element
  action?: JSX.Element
  compact?: boolean
}

/** A calm explanation of why there is nothing here, and what to do next. */
export function EmptyState(props: ParentProps<EmptyStateProps>) {
  return (
    <div class="empty-state" classList={{ compact: props.compact }} role="status">
      <Show when={props.icon}>
        <div class="empty-state-icon" aria-hidden="true">{props.icon}</div>
      </Show>
      <h2>{props.title}</h2>
      <div class="empty-state-body">{props.children}</div>
      <Show when={props.action}>
        <div class="empty-state-action">{props.action}</div>
      </Show>
    </div>
  )
}

import { For, Show, type JSX } from 'solid-js'
import { RelativeTime } from '../../components/relative-time'
import { formatBytes, formatDuration } from '../../lib/format'
import { ItemView } from './item-view'
import type { MessageModel, ViewItem } from './message-model'

export interface MessageViewProps {
  message: MessageModel
  /** `&part=` from the URL: this part is scrolled to, opened and marked. */
  highlightPart?: string
  /** `&hl=`: the search whose matches the highlighted part shows (long text opens where they are). */
  highlightQuery?: string
  /** The keyboard cursor is on this message. */
  active?: boolean
  /** Follows another assistant step of the same turn: the role line is left out. */
  continued?: boolean
  /** A staged revert hides this message in OpenCode. */
  reverted?: boolean
  /** Loupe pruned parts of this message (its receipts say how many, and when). */
  pruned?: { parts: number; at: number }
  now?: number
  /** Slots for selection and pruning: a control per message and per part. */
  controls?: (message: MessageModel) => JSX.Element
  itemControls?: (message: MessageModel, item: ViewItem) => JSX.Element
}

const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Assistant', summary: 'Compaction summary', system: 'System', synthetic: 'Synthetic' }

/** One message of either generation, from its view model. */
export function MessageView(props: MessageViewProps) {
  const label = () => ROLE_LABEL[props.message.type] ?? props.message.type
  const took = () => (props.message.createdAt !== undefined && props.message.completedAt !== undefined ? props.message.completedAt - props.message.createdAt : undefined)
  const items = () => (
    <For each={props.message.items}>
      {(item) => <ItemView item={item} storage={props.message.storage} highlighted={props.highlightPart === item.ref} query={props.highlightPart === item.ref ? props.highlightQuery : undefined} controls={props.itemControls?.(props.message, item)} />}
    </For>
  )
  return (
    <article
      class={`message message-${props.message.role}`}
      classList={{ active: props.active, reverted: props.reverted, continued: props.continued }}
      data-message-id={props.message.id}
      aria-label={`${label()} message`}
    >
      <Show when={props.message.role !== 'event'} fallback={<div class="message-body">{items()}</div>}>
        <header class="message-head">
          <span class="role-dot" aria-hidden="true" />
          <span class="role">{label()}</span>
          <Show when={props.message.agent && props.message.role === 'assistant'}>
            <span class="meta">@{props.message.agent}</span>
          </Show>
          <Show when={props.message.model}>
            <span class="meta">{props.message.model}</span>
          </Show>
          <Show when={props.reverted}>
            <span class="chip chip-warn" title="A revert is staged: OpenCode hides this message">reverted</span>
          </Show>
          <span class="message-head-spacer" />
          <Show when={took() !== undefined && props.message.role === 'assistant'}>
            <span class="meta">{formatDuration(took() ?? 0)}</span>
          </Show>
          <Show when={props.message.createdAt !== undefined}>
            <RelativeTime class="meta" at={props.message.createdAt ?? 0} now={props.now} />
          </Show>
          <Show when={props.controls}>
            <span class="message-controls">{props.controls?.(props.message)}</span>
          </Show>
        </header>
        <div class="message-body">
          <Show when={props.message.error}>
            <div class="message-error" role="note">{props.message.error}</div>
          </Show>
          <Show when={props.pruned}>
            {(note) => (
              <p class="pruned-note" role="note">
                {note().parts === 1 ? 'A tool call or reasoning part was' : `${note().parts} tool calls or reasoning parts were`} removed here by Loupe{' '}
                <RelativeTime at={note().at} now={props.now} />.
              </p>
            )}
          </Show>
          <Show when={props.message.omittedBytes !== undefined}>
            <div class="omitted">
              This message holds {formatBytes(props.message.omittedBytes ?? 0)}, more than Loupe sends to the browser at once, so its parts are not shown.
            </div>
          </Show>
          {items()}
        </div>
      </Show>
    </article>
  )
}

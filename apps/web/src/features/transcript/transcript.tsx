import { For, mapArray, Show, type Accessor, type JSX } from 'solid-js'
import { EmptyState } from '../../components/empty-state'
import { ErrorPanel } from '../../components/error-panel'
import { ListSkeleton } from '../../components/skeleton'
import { useApi } from '../../lib/api-context'
import { plural } from '../../lib/format'
import { useKeys } from '../../lib/keys'
import type { MessageModel, ViewItem } from './message-model'
import { toMessageModel } from './to-message-model'
import { MessageView } from './message-view'
import type { TranscriptTarget } from './hit-reveal'
import { createTranscriptScroll } from './transcript-scroll'
import { createTranscript, type TranscriptRef, type TranscriptWindow } from './transcript.data'

export interface TranscriptProps {
  session: TranscriptRef
  /** `?m=`, `&part=` and `&hl=` (the search that led here) from the URL. */
  target: TranscriptTarget
  /** A staged revert: this message and later ones are marked. */
  revertMessageID?: string
  /** The top visible message as the person scrolls (undefined at the live end), for the URL. */
  onPosition?: (messageID: string | undefined) => void
  pageSize?: number
  controls?: (message: MessageModel) => JSX.Element
  itemControls?: (message: MessageModel, item: ViewItem) => JSX.Element
  /** Hands the window to a feature that edits messages (pruning): it re-reads what changed. */
  onWindow?: (win: TranscriptWindow, models: Accessor<MessageModel[]>) => void
}

/** A windowed transcript: at most a few pages in the DOM, however long the session. */
export function Transcript(props: TranscriptProps) {
  const win = createTranscript(useApi(), () => props.session, { pageSize: props.pageSize ?? 50 })
  const models = mapArray(win.messages, toMessageModel)
  const nav = createTranscriptScroll(win, models, { session: () => props.session, target: () => props.target, onPosition: (m) => props.onPosition?.(m) })
  props.onWindow?.(win, models)

  useKeys((event) => {
    if (event.key === 'j') nav.move(1)
    else if (event.key === 'k') nav.move(-1)
    else if (event.key === 'Home') nav.jumpToStart()
    else if (event.key === 'End') nav.jumpToEnd()
    else return
    event.preventDefault()
  })

  const reverted = (id: string) => props.revertMessageID !== undefined && id >= props.revertMessageID
  const edgeButton = (direction: 'older' | 'newer', label: string) => (
    <button type="button" class="link-button" disabled={win.loading() !== false} onClick={() => void nav.page(direction)}>
      {win.loading() === direction ? 'Loading…' : label}
    </button>
  )
  return (
    <div class="transcript" ref={nav.setScroller} onScroll={() => nav.onScroll()} tabIndex={-1} aria-busy={win.loading() !== false}>
      <Show when={win.error()}>
        <ErrorPanel error={win.error()} onRetry={nav.retry} compact />
      </Show>
      <Show when={win.loading() === 'open' && models().length === 0}>
        <ListSkeleton rows={6} />
      </Show>
      <Show when={!win.loading() && !win.error() && win.total() === 0 && models().length === 0}>
        <EmptyState title="This session has no messages" icon="◌">
          <p>OpenCode created the session but nothing was said in it yet.</p>
        </EmptyState>
      </Show>
      <Show when={models().length > 0}>
        <div class="transcript-edge">
          <Show when={win.hasOlder()} fallback={<span class="edge-label">Start of session · {plural(win.total(), 'message')}</span>}>
            {edgeButton('older', 'Load earlier messages')}
          </Show>
        </div>
      </Show>
      <div class="messages">
        <For each={models()}>
          {(message, index) => (
            <MessageView
              message={message}
              continued={message.role === 'assistant' && models()[index() - 1]?.role === 'assistant'}
              highlightPart={props.target.m === message.id ? props.target.part : undefined}
              highlightQuery={props.target.m === message.id ? props.target.hl : undefined}
              active={nav.active() === message.id}
              reverted={reverted(message.id)}
              pruned={win.notes().get(message.id)}
              controls={props.controls}
              itemControls={props.itemControls}
            />
          )}
        </For>
      </div>
      <Show when={win.hasNewer()}>
        <div class="transcript-edge">{edgeButton('newer', 'Load later messages')}</div>
      </Show>
    </div>
  )
}

import { createEffect, createSignal, For, mapArray, on, onCleanup, Show, type JSX } from 'solid-js'
import { EmptyState } from '../../components/empty-state'
import { ErrorPanel } from '../../components/error-panel'
import { ListSkeleton } from '../../components/skeleton'
import { useApi } from '../../lib/api-context'
import { useKeys } from '../../lib/keys'
import { plural } from '../../lib/format'
import { toMessageModel, type MessageModel, type ViewItem } from './message-model'
import { MessageView } from './message-view'
import { captureAnchor, distanceToBottom, restoreAnchor, revealMessage } from './scroll-anchor'
import { createTranscript, type TranscriptRef } from './transcript.data'

export interface TranscriptProps {
  session: TranscriptRef
  /** `?m=` and `&part=` from the URL. */
  target: { m?: string; part?: string }
  /** A staged revert: this message and later ones are marked. */
  revertMessageID?: string
  /** The top visible message as the person scrolls (undefined at the live end), for the URL. */
  onPosition?: (messageID: string | undefined) => void
  pageSize?: number
  controls?: (message: MessageModel) => JSX.Element
  itemControls?: (message: MessageModel, item: ViewItem) => JSX.Element
}

const EDGE_PX = 800

/** A windowed transcript: opens at the latest page (or at `?m=`), loads more at either edge, keeps the scroll position. */
export function Transcript(props: TranscriptProps) {
  const win = createTranscript(useApi(), () => props.session, { pageSize: props.pageSize ?? 50 })
  const models = mapArray(win.messages, toMessageModel)
  const [active, setActive] = createSignal<string>()
  let scroller: HTMLDivElement | undefined
  let reported: string | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  onCleanup(() => clearTimeout(timer))

  async function openAt(m: string | undefined, part?: string) {
    await win.open(m ? { around: m } : { anchor: 'latest' })
    if (!scroller) return
    if (m && revealMessage(scroller, m, part)) setActive(m)
    else scroller.scrollTop = scroller.scrollHeight
    void fillEdges()
  }

  async function page(direction: 'older' | 'newer') {
    if (!scroller || win.loading()) return
    const anchor = captureAnchor(scroller)
    const added = await (direction === 'older' ? win.loadOlder() : win.loadNewer())
    if (added && scroller) restoreAnchor(scroller, anchor)
  }

  /** Keep loading while the window does not reach past either edge of the viewport. */
  async function fillEdges() {
    if (!scroller) return
    if (scroller.scrollTop < EDGE_PX && win.hasOlder()) await page('older')
    else if (scroller && distanceToBottom(scroller) < EDGE_PX && win.hasNewer()) await page('newer')
  }

  createEffect(on(() => `${props.session.storage}:${props.session.sessionID}`, () => {
    reported = props.target.m
    void openAt(props.target.m, props.target.part)
  }))
  createEffect(on(() => props.target.m, (m) => {
    if (m === reported || !scroller) return
    reported = m
    if (m && revealMessage(scroller, m, props.target.part)) setActive(m)
    else void openAt(m, props.target.part)
  }, { defer: true }))

  const onScroll = () => {
    void fillEdges()
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (!scroller) return
      const atEnd = distanceToBottom(scroller) < 40 && !win.hasNewer()
      reported = atEnd ? undefined : captureAnchor(scroller)?.id
      props.onPosition?.(reported)
    }, 300)
  }

  const move = (delta: number) => {
    const list = models()
    const at = list.findIndex((m) => m.id === active())
    const next = list[at < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.max(0, Math.min(list.length - 1, at + delta))]
    if (!next || !scroller) return
    setActive(next.id)
    revealMessage(scroller, next.id, undefined, 'nearest')
    void fillEdges()
  }
  useKeys((event) => {
    if (event.key === 'j') move(1)
    else if (event.key === 'k') move(-1)
    else if (event.key === 'Home') void win.open({ anchor: 'earliest' }).then(() => scroller?.scrollTo({ top: 0 }))
    else if (event.key === 'End') void openAt(undefined)
    else return
    event.preventDefault()
  })

  const reverted = (id: string) => props.revertMessageID !== undefined && id >= props.revertMessageID
  return (
    <div class="transcript" ref={scroller} onScroll={onScroll} tabIndex={-1} aria-busy={win.loading() !== false}>
      <Show when={win.error()}>
        <ErrorPanel error={win.error()} onRetry={() => void openAt(props.target.m, props.target.part)} compact />
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
            <button type="button" class="link-button" disabled={win.loading() !== false} onClick={() => void page('older')}>
              {win.loading() === 'older' ? 'Loading earlier messages…' : 'Load earlier messages'}
            </button>
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
              active={active() === message.id}
              reverted={reverted(message.id)}
              controls={props.controls}
              itemControls={props.itemControls}
            />
          )}
        </For>
      </div>
      <Show when={win.hasNewer()}>
        <div class="transcript-edge">
          <button type="button" class="link-button" disabled={win.loading() !== false} onClick={() => void page('newer')}>
            {win.loading() === 'newer' ? 'Loading later messages…' : 'Load later messages'}
          </button>
        </div>
      </Show>
    </div>
  )
}

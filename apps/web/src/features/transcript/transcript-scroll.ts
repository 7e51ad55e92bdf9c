import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'
import type { MessageModel } from './message-model'
import { clearMarks } from '../../lib/search-marks'
import { revealTarget, type TranscriptTarget } from './hit-reveal'
import { captureAnchor, distanceToBottom, isInView, restoreAnchor, revealMessage } from './scroll-anchor'
import type { TranscriptRef, TranscriptWindow } from './transcript.data'

const EDGE_PX = 800

export interface ScrollOptions {
  session: Accessor<TranscriptRef>
  target: Accessor<TranscriptTarget>
  onPosition?: (messageID: string | undefined) => void
}

/**
 * Drives a transcript window from its scroll container: opens at the latest page or at `?m=`,
 * pages in at either edge while keeping the visible message still, reports the top visible
 * message for the URL, and moves a keyboard cursor between messages.
 */
export function createTranscriptScroll(win: TranscriptWindow, models: Accessor<MessageModel[]>, options: ScrollOptions) {
  const [active, setActive] = createSignal<string>()
  let scroller: HTMLElement | undefined
  // The last position we reported ourselves, so the URL echo does not move the view again.
  let reported: string | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  onCleanup(() => {
    clearTimeout(timer)
    clearMarks()
  })

  async function openAt(m: string | undefined, target: TranscriptTarget = {}) {
    clearMarks()
    await win.open(m ? { around: m } : { anchor: 'latest' })
    if (!scroller) return
    if (m && revealTarget(scroller, m, target)) setActive(m)
    else scroller.scrollTop = scroller.scrollHeight
    // Arrow keys, Page Up/Down and Space then scroll the transcript, unless the person is elsewhere.
    if (document.activeElement === document.body) scroller.focus({ preventScroll: true })
    void fillEdges()
  }

  async function page(direction: 'older' | 'newer') {
    if (!scroller || win.loading()) return
    const anchor = captureAnchor(scroller)
    const added = await (direction === 'older' ? win.loadOlder() : win.loadNewer())
    if (added && scroller) restoreAnchor(scroller, anchor)
  }

  async function fillEdges() {
    if (!scroller) return
    if (scroller.scrollTop < EDGE_PX && win.hasOlder()) await page('older')
    else if (distanceToBottom(scroller) < EDGE_PX && win.hasNewer()) await page('newer')
  }

  createEffect(on(() => `${options.session().storage}:${options.session().sessionID}`, () => {
    reported = options.target().m
    void openAt(options.target().m, options.target())
  }))
  createEffect(on(() => options.target().m, (m) => {
    if (m === reported || !scroller) return
    reported = m
    if (m && revealTarget(scroller, m, options.target())) setActive(m)
    else void openAt(m, options.target())
  }, { defer: true }))

  return {
    active,
    page,
    setScroller: (el: HTMLElement) => (scroller = el),
    retry: () => void openAt(options.target().m, options.target()),
    onScroll() {
      void fillEdges()
      clearTimeout(timer)
      timer = setTimeout(() => {
        if (!scroller) return
        // A link to one part (a search hit) stays while that part is on screen: the address bar
        // then still opens the hit, highlighted, when copied or reloaded.
        const { m, part } = options.target()
        if (m && part && isInView(scroller, m, part)) return
        const atEnd = distanceToBottom(scroller) < 40 && !win.hasNewer()
        // The URL drops the part, and with it the outline; the marks go too.
        clearMarks()
        reported = atEnd ? undefined : captureAnchor(scroller)?.id
        options.onPosition?.(reported)
      }, 300)
    },
    move(delta: number) {
      const list = models()
      const at = list.findIndex((m) => m.id === active())
      const next = list[at < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.max(0, Math.min(list.length - 1, at + delta))]
      if (!next || !scroller) return
      setActive(next.id)
      revealMessage(scroller, next.id, 'nearest')
      void fillEdges()
    },
    jumpToStart: () => void win.open({ anchor: 'earliest' }).then(() => scroller?.scrollTo({ top: 0 })),
    jumpToEnd: () => void openAt(undefined),
  }
}

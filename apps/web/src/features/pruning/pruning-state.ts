import { messageContent, selectorOf, type NativeMessage } from '@loupe/domain'
import { createEffect, createSignal, on, onCleanup, onMount, type Accessor } from 'solid-js'
import { createQuery } from '../../lib/query'
import type { Api } from '../../lib/trpc'
import type { MessageModel, ViewItem } from '../transcript/message-model'
import type { TranscriptWindow } from '../transcript/transcript.data'
import {
  followPruned,
  reviewMessage,
  reviewSelection,
  reviewSession,
  runReview,
  type PruneTarget,
  type Review,
  type RunProgress,
  type SelectedPart,
} from './pruning.data'

export type DialogState =
  | { phase: 'closed' }
  | { phase: 'loading'; title: string }
  | { phase: 'review'; review: Review }
  | { phase: 'running'; review: Review; progress: RunProgress }
  | { phase: 'done'; review: Review; progress: RunProgress; cancelled: boolean }
  | { phase: 'error'; error: unknown }

/** A finished assistant message's tool call (completed or errored) or reasoning: what may go. */
export function isPrunable(message: MessageModel, item: ViewItem): item is Extract<ViewItem, { kind: 'tool' | 'reasoning' }> {
  if (message.role !== 'assistant' || message.completedAt === undefined || message.omittedBytes !== undefined) return false
  if (item.kind === 'reasoning') return true
  return item.kind === 'tool' && (item.tool.status === 'completed' || item.tool.status === 'error')
}

const LIVE_POLL_MS = 5_000

const keyOf = (messageID: string, ref: string) => `${messageID}\u0000${ref}`

/**
 * Everything the transcript needs to prune: what the session would save (its plan), the person's
 * selection, the review dialog, and the live link to commits from every tab. `onCommitted` hears of
 * this tab's own commits once a run ends (the page's header re-reads its figures).
 */
export function createPruning(api: Api, target: Accessor<PruneTarget>, onCommitted?: () => void) {
  const plan = createQuery(() => target(), (t, signal) => api.pruning.sessionPlan.query(t, { signal }))
  // OpenCode may start (or finish) running the session while the page is open: ask again now and then.
  const live = createQuery(() => target(), (t, signal) => api.pruning.liveState.query(t, { signal }))
  const liveTimer = setInterval(() => live.refetch(), LIVE_POLL_MS)
  const lock = () => {
    const state = live.data()
    if (state && 'state' in state) return state.state === 'locked' ? state.lock : null
    return plan.data()?.lock ?? null
  }
  const [selected, setSelected] = createSignal<SelectedPart[]>([])
  const [dialog, setDialog] = createSignal<DialogState>({ phase: 'closed' })
  let win: TranscriptWindow | undefined
  let models: Accessor<MessageModel[]> = () => []
  let anchor: string | undefined
  let controller: AbortController | undefined
  let planTimer: ReturnType<typeof setTimeout> | undefined

  const refetchPlan = () => {
    clearTimeout(planTimer)
    planTimer = setTimeout(() => plan.refetch(), 250)
  }
  onMount(() => {
    const stop = followPruned(api, (event) => {
      if (event.sessionID !== target().sessionID || event.storage !== target().storage) return
      setSelected((list) => list.filter((p) => p.messageID !== event.messageID))
      void win?.refresh([event.messageID])
      refetchPlan()
    })
    onCleanup(stop)
  })
  // Unlocked again: the plan's own block (which named the lock) is stale.
  createEffect(on(() => lock() !== null, (now, before) => void (before && !now && refetchPlan()), { defer: true }))
  onCleanup(() => {
    controller?.abort()
    clearTimeout(planTimer)
    clearInterval(liveTimer)
  })

  const native = (messageID: string): NativeMessage | undefined => win?.messages().find((m) => m.id === messageID)
  function toPart(message: MessageModel, item: Extract<ViewItem, { kind: 'tool' | 'reasoning' }>): SelectedPart | undefined {
    const source = native(message.id)
    if (!source) return undefined
    const part = source.storage === 'v1' ? messageContent(source).find((p) => (p as { id?: unknown }).id === item.ref) : messageContent(source)[Number(item.ref)]
    const selector = part === undefined ? undefined : selectorOf(part, source.storage)
    if (!selector) return undefined
    const label = item.kind === 'tool' ? `${item.tool.name}${item.tool.title ? ` · ${item.tool.title}` : ''}` : 'Reasoning'
    return { messageID: message.id, ref: item.ref, selector, kind: item.kind, label, bytes: item.bytes }
  }

  /** Every prunable item in transcript order, for shift-click ranges across messages. */
  const order = () => models().flatMap((m) => m.items.filter((i) => isPrunable(m, i)).map((i) => ({ message: m, item: i as Extract<ViewItem, { kind: 'tool' | 'reasoning' }> })))

  function toggle(message: MessageModel, item: Extract<ViewItem, { kind: 'tool' | 'reasoning' }>, range: boolean) {
    const key = keyOf(message.id, item.ref)
    const on = !isSelected(message.id, item.ref)
    const all = order()
    const at = all.findIndex((x) => keyOf(x.message.id, x.item.ref) === key)
    const from = range && anchor !== undefined ? all.findIndex((x) => keyOf(x.message.id, x.item.ref) === anchor) : -1
    const span = from >= 0 && at >= 0 ? all.slice(Math.min(from, at), Math.max(from, at) + 1) : [{ message, item }]
    const keys = new Set(span.map((x) => keyOf(x.message.id, x.item.ref)))
    setSelected((list) => {
      const rest = list.filter((p) => !keys.has(keyOf(p.messageID, p.ref)))
      if (!on) return rest
      const added = span.map((x) => toPart(x.message, x.item)).filter((p): p is SelectedPart => p !== undefined)
      return [...rest, ...added]
    })
    anchor = key
  }
  const isSelected = (messageID: string, ref: string) => selected().some((p) => p.messageID === messageID && p.ref === ref)

  async function open(title: string, build: () => Promise<Review>) {
    setDialog({ phase: 'loading', title })
    try {
      setDialog({ phase: 'review', review: await build() })
    } catch (error) {
      setDialog({ phase: 'error', error })
    }
  }

  /** `includeForks`: also prune the forks' copies a whole-session review lists. */
  async function confirm(options: { includeForks?: boolean } = {}) {
    const state = dialog()
    if (state.phase !== 'review') return
    const mine = (controller = new AbortController())
    const review = state.review
    setDialog({ phase: 'running', review, progress: { done: 0, total: review.messages.length, pruned: 0, removedParts: 0, refused: [], committed: [] } })
    try {
      const progress = await runReview(api, target(), review, (p) => setDialog({ phase: 'running', review, progress: p }), mine.signal, options)
      // Re-read the committed messages here too, in case the event stream is down.
      await win?.refresh(progress.committed)
      const done = new Set(progress.committed)
      setSelected((list) => list.filter((p) => !done.has(p.messageID)))
      refetchPlan()
      if (progress.pruned > 0) onCommitted?.()
      setDialog({ phase: 'done', review, progress, cancelled: mine.signal.aborted })
    } catch (error) {
      setDialog({ phase: 'error', error })
    }
  }

  return {
    target,
    plan,
    /** Why OpenCode may be running this session now (null: it is not), kept fresh while the page is open. */
    lock,
    selected,
    dialog,
    isSelected,
    toggle,
    clearSelection: () => setSelected([]),
    attach(w: TranscriptWindow, m: Accessor<MessageModel[]>) {
      win = w
      models = m
    },
    reviewSelected: () => open('Checking the selected parts…', () => reviewSelection(api, target(), selected())),
    reviewMessage: (messageID: string) => open('Checking this message…', () => reviewMessage(api, target(), messageID)),
    // A fresh plan: each candidate carries the revision the person is shown, and no older one.
    reviewSession: () => open('Preparing the whole session…', async () => reviewSession(await api.pruning.sessionPlan.query(target()))),
    confirm,
    cancel: () => controller?.abort(),
    close: () => {
      if (dialog().phase !== 'running') setDialog({ phase: 'closed' })
    },
  }
}

export type Pruning = ReturnType<typeof createPruning>

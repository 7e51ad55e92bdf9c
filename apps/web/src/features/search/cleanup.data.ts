import { createSignal, type Accessor } from 'solid-js'
import type { Api, RouterOutputs } from '../../lib/trpc'
import { candidateMessage, runReview, type Refusal, type Review } from '../pruning/pruning.data'
import type { SearchInput } from './search.data'

export type Candidates = RouterOutputs['history']['candidates']
export type CandidateSession = Candidates['sessions'][number]

export interface CleanupProgress {
  /** Messages handled of those planned so far (later rounds add to `total`). */
  done: number
  total: number
  pruned: number
  removedParts: number
  /** What the committed messages' plans removed, by kind, and their bytes. */
  tools: number
  reasoning: number
  bytes: number
  refused: Refusal[]
}

export type CleanupState =
  | { phase: 'closed' }
  | { phase: 'loading' }
  | { phase: 'review'; candidates: Candidates }
  | { phase: 'running'; candidates: Candidates; progress: CleanupProgress }
  | { phase: 'done'; candidates: Candidates; progress: CleanupProgress; cancelled: boolean }
  | { phase: 'error'; error: unknown }

const startProgress = (total: number): CleanupProgress => ({ done: 0, total, pruned: 0, removedParts: 0, tools: 0, reasoning: 0, bytes: 0, refused: [] })

/** One session's candidates as the pruning review it runs: each message's matching parts, by their indexes. */
export function reviewOf(session: CandidateSession): Review {
  return {
    scope: 'session',
    messages: session.candidates.map(candidateMessage),
    refused: [],
  }
}

/**
 * Run a clean-up: each session's messages through `pruning.prune` (their matching parts), then, when
 * the plan was capped, ask for the next candidates and go on. Stopping takes effect between
 * messages; what ran stays done, and every message was pruned only at the revision it was planned at.
 */
export async function runCleanup(api: Api, input: SearchInput, first: Candidates, onProgress: (p: CleanupProgress) => void, signal: AbortSignal) {
  const progress = startProgress(first.totals.messages)
  let plan = first
  for (let round = 0; round < 50; round++) {
    for (const session of plan.sessions) {
      if (signal.aborted) return progress
      const planned = new Map(session.candidates.map((c) => [c.messageID, c]))
      const base = { ...progress, refused: [...progress.refused] }
      const ran = await runReview(api, { sessionID: session.sessionID, storage: session.storage }, reviewOf(session), (p) => {
        onProgress({ ...base, done: base.done + p.done, pruned: base.pruned + p.pruned, removedParts: base.removedParts + p.removedParts, refused: [...base.refused, ...p.refused] })
      }, signal)
      progress.done += ran.done
      progress.pruned += ran.pruned
      progress.removedParts += ran.removedParts
      for (const id of ran.committed) {
        const c = planned.get(id)
        progress.bytes += c?.bytes ?? 0
        progress.tools += c?.toolCount ?? 0
        progress.reasoning += c?.reasoningCount ?? 0
      }
      progress.refused.push(...ran.refused)
      onProgress({ ...progress })
    }
    if (!plan.truncated || signal.aborted || progress.pruned === 0) return progress
    plan = await api.history.candidates.query(input, { signal })
    if (plan.totals.messages === 0) return progress
    progress.total += plan.totals.messages
  }
  return progress
}

/** The clean-up dialog's state: plan, review, run with progress and stop, outcome. */
export function createCleanup(api: Api, input: Accessor<SearchInput | null>, onFinished: () => void) {
  const [state, setState] = createSignal<CleanupState>({ phase: 'closed' })
  // The search (query and filters) a clean-up last removed something for: an empty answer to
  // exactly that search is the clean-up's doing; another filter's empty answer is not.
  const [cleanedFor, setCleanedFor] = createSignal<string | null>(null)
  // The search the open dialog planned for: it runs exactly that, whatever the page shows meanwhile.
  const [planned, setPlanned] = createSignal<SearchInput | null>(null)
  let controller: AbortController | undefined
  return {
    state,
    planned,
    /** This very search's matches were cleaned up (parts removed) while the page was open. */
    cleaned: () => cleanedFor() !== null && cleanedFor() === JSON.stringify(input()),
    async open() {
      const current = input()
      if (!current) return
      setPlanned(current)
      setState({ phase: 'loading' })
      try {
        setState({ phase: 'review', candidates: await api.history.candidates.query(current) })
      } catch (error) {
        setState({ phase: 'error', error })
      }
    },
    async confirm() {
      const s = state()
      const current = planned()
      if (s.phase !== 'review' || !current) return
      controller = new AbortController()
      setState({ phase: 'running', candidates: s.candidates, progress: startProgress(s.candidates.totals.messages) })
      try {
        const progress = await runCleanup(api, current, s.candidates, (p) => setState({ phase: 'running', candidates: s.candidates, progress: p }), controller.signal)
        setState({ phase: 'done', candidates: s.candidates, progress, cancelled: controller.signal.aborted })
        if (progress.removedParts > 0) setCleanedFor(JSON.stringify(current))
      } catch (error) {
        setState({ phase: 'error', error })
      }
      onFinished()
    },
    cancel: () => controller?.abort(),
    close() {
      controller?.abort()
      setPlanned(null)
      setState({ phase: 'closed' })
    },
  }
}

export type Cleanup = ReturnType<typeof createCleanup>

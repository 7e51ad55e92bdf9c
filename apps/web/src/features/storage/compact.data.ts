import { createSignal, onCleanup, type Accessor } from 'solid-js'
import { describeProblem } from '../../lib/errors'
import type { Api, RouterOutputs } from '../../lib/trpc'

export type CompactAnswer = RouterOutputs['storage']['compact']
export type CompactRun = RouterOutputs['storage']['compactStatus']

export interface CompactState {
  /** The last dry run's answer, or the last write's. */
  answer: Accessor<CompactAnswer | undefined>
  /** The server's running compaction, polled while one is written. */
  run: Accessor<CompactRun | undefined>
  busy: Accessor<'checking' | 'compacting' | null>
  problem: Accessor<string | undefined>
  check(): Promise<void>
  compact(): Promise<void>
  stop(): Promise<void>
}

const POLL_MS = 500

/** The Storage page's compaction: a dry run, then the write with its progress polled until it answers. */
export function createCompactState(api: Api, onWritten?: () => void): CompactState {
  const [answer, setAnswer] = createSignal<CompactAnswer>()
  const [run, setRun] = createSignal<CompactRun>()
  const [busy, setBusy] = createSignal<'checking' | 'compacting' | null>(null)
  const [problem, setProblem] = createSignal<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  onCleanup(() => clearTimeout(timer))

  const poll = async () => {
    try {
      setRun(await api.storage.compactStatus.query())
    } catch {
      // The write's own answer reports any failure.
    }
    if (busy() === 'compacting') timer = setTimeout(() => void poll(), POLL_MS)
  }
  const attempt = async (kind: 'checking' | 'compacting', dryRun: boolean) => {
    setBusy(kind)
    setProblem(undefined)
    if (!dryRun) timer = setTimeout(() => void poll(), POLL_MS)
    try {
      setAnswer(await api.storage.compact.mutate({ dryRun }))
      if (!dryRun) onWritten?.()
    } catch (error) {
      setProblem(describeProblem(error).detail)
    } finally {
      clearTimeout(timer)
      setBusy(null)
      setRun(undefined)
    }
  }
  return {
    answer,
    run,
    busy,
    problem,
    check: () => attempt('checking', true),
    compact: () => attempt('compacting', false),
    async stop() {
      await api.storage.compactStop.mutate()
      void poll()
    },
  }
}

import { createEffect, createSignal, onCleanup, type Accessor } from 'solid-js'
import type { Api, RouterOutputs } from '../../lib/trpc'

export type DoctorStatus = RouterOutputs['storage']['doctor']
export type DoctorReport = Extract<DoctorStatus, { state: 'done' }>['report']

export interface DoctorState {
  status: Accessor<DoctorStatus | undefined>
  error: Accessor<unknown>
  /** Scan again even if the file did not change. */
  refresh(): void
  /** Ask again: a new report if the file changed (after a reclaim), else the cached one. */
  reload(): void
}

const POLL_MS = 400

/** The storage doctor: asks once, then polls while the server's scan runs. */
export function createDoctor(api: Api): DoctorState {
  const [status, setStatus] = createSignal<DoctorStatus>()
  const [error, setError] = createSignal<unknown>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let controller: AbortController | undefined
  async function ask(refresh: boolean) {
    clearTimeout(timer)
    controller?.abort()
    const mine = (controller = new AbortController())
    try {
      const next = await api.storage.doctor.query({ refresh }, { signal: mine.signal })
      if (mine.signal.aborted) return
      setError(undefined)
      setStatus(next)
    } catch (caught) {
      if (!mine.signal.aborted) setError(caught)
    }
  }
  createEffect(() => {
    if (status()?.state === 'running') timer = setTimeout(() => void ask(false), POLL_MS)
  })
  void ask(false)
  onCleanup(() => {
    clearTimeout(timer)
    controller?.abort()
  })
  return { status, error, refresh: () => void ask(true), reload: () => void ask(false) }
}

import { createEffect, createSignal, Match, onCleanup, Show, Switch } from 'solid-js'
import { useApi } from '../../lib/api-context'
import { describeProblem } from '../../lib/errors'
import { formatBytes } from '../../lib/format'
import { createQuery } from '../../lib/query'
import type { RouterOutputs } from '../../lib/trpc'

const PHASES: Record<string, string> = {
  checkpoint: 'Emptying the write-ahead log…',
  index: 'Compacting the search index…',
}

type Status = RouterOutputs['pruning']['reclaimStatus']
const total = (f: { db: number; wal: number }) => f.db + f.wal

/**
 * "Reclaim space": rebuild the file without the pages pruning freed, then empty the write-ahead
 * log, so pruned bytes leave the disk. Runs on the server in a worker; OpenCode must be stopped.
 */
export function ReclaimPanel(props: { writable: boolean; onDone?: () => void }) {
  const api = useApi()
  const [tick, setTick] = createSignal(0)
  const [message, setMessage] = createSignal<string>()
  const status = createQuery(() => tick(), (_t, signal) => api.pruning.reclaimStatus.query(undefined, { signal }))
  const running = () => status.data()?.status.state === 'running'
  let timer: ReturnType<typeof setTimeout> | undefined
  createEffect(() => {
    clearTimeout(timer)
    if (running()) timer = setTimeout(() => setTick((n) => n + 1), 500)
  })
  createEffect((was: boolean | undefined) => {
    const now = running()
    if (was && !now) props.onDone?.()
    return now
  })
  onCleanup(() => clearTimeout(timer))

  async function start() {
    setMessage(undefined)
    try {
      const answer = await api.pruning.reclaim.mutate({ confirm: 'reclaim' })
      if (answer.status === 'blocked') setMessage(answer.detail)
    } catch (error) {
      setMessage(describeProblem(error).detail)
    }
    setTick((n) => n + 1)
  }

  const progress = (s: Extract<Status['status'], { state: 'running' }>) => Math.min(1, s.now.wal / Math.max(1, s.expectedBytes))
  return (
    <section class="reclaim" aria-label="Reclaim space">
      <h2>Reclaim space</h2>
      <p class="muted small">
        Pruning removes content from the conversation and the event log at once, but SQLite keeps the file's size until it is rebuilt.
        Reclaiming rebuilds it (VACUUM) and empties the write-ahead log. It needs OpenCode stopped, and free disk about the size of the file.
      </p>
      <Show when={status.data()}>
        {(s) => (
          <>
            <div class="reclaim-figures">
              <div class="reclaim-figure"><span>Database</span><strong>{formatBytes(s().files.db)}</strong></div>
              <div class="reclaim-figure"><span>Write-ahead log</span><strong>{formatBytes(s().files.wal)}</strong></div>
              <div class="reclaim-figure"><span>Free inside the file</span><strong>{formatBytes(s().freeBytes)}</strong></div>
            </div>
            <Show when={s().holders.length > 0 && !running()}>
              <div class="banner banner-warn" role="note">
                <strong>OpenCode has this file open</strong> (process {s().holders.join(', ')}). Stop OpenCode, then press Reclaim.
              </div>
            </Show>
            <Switch>
              <Match when={s().status.state === 'running' && (s().status as Extract<Status['status'], { state: 'running' }>)}>
                {(r) => (
                  <div role="status">
                    <span>{PHASES[r().phase] ?? 'Rebuilding the database…'}</span>
                    <progress max={1} value={r().phase === 'checkpoint' || r().phase === 'index' ? 1 : progress(r())} aria-label="Reclaim progress" />
                  </div>
                )}
              </Match>
              <Match when={s().status.state === 'done' && (s().status as Extract<Status['status'], { state: 'done' }>)}>
                {(d) => (
                  <div class="banner banner-info" role="status">
                    <strong>{formatBytes(total(d().before))} → {formatBytes(total(d().after))}</strong> (database and write-ahead log).{' '}
                    {d().message}
                  </div>
                )}
              </Match>
              <Match when={s().status.state === 'failed' && (s().status as Extract<Status['status'], { state: 'failed' }>)}>
                {(f) => <div class="banner banner-warn" role="alert">{f().message}</div>}
              </Match>
            </Switch>
          </>
        )}
      </Show>
      <Show when={message()}>
        <div class="banner banner-warn" role="alert">{message()}</div>
      </Show>
      <div class="reclaim-actions">
        <button type="button" class="button button-primary" disabled={!props.writable || running() || (status.data()?.holders.length ?? 0) > 0} onClick={() => void start()}>
          {running() ? 'Reclaiming…' : 'Reclaim space'}
        </button>
        <Show when={!props.writable}><span class="muted small">Loupe cannot write to this database.</span></Show>
      </div>
    </section>
  )
}

import { createEffect, createSignal, For, Match, onCleanup, Show, Switch } from 'solid-js'
import { useApi } from '../../lib/api-context'
import { describeProblem } from '../../lib/errors'
import { formatBytes } from '../../lib/format'
import { createQuery } from '../../lib/query'
import type { RouterOutputs } from '../../lib/trpc'

type Status = RouterOutputs['storage']['reclaimStatus']
type Running = Extract<Status['state'], { state: 'running' }>
type Finished = Extract<Status['state'], { state: 'finished' }>

const PHASES: Record<Running['phase'], string> = {
  starting: 'Checking…',
  copy: 'Writing a compacted copy beside the database…',
  verify: 'Verifying the copy (integrity, schema, row counts)…',
  swap: 'Swapping the copy in…',
}
const total = (f: { db: number; wal: number }) => f.db + f.wal

/**
 * "Reclaim space": VACUUM INTO a compacted copy beside the file, verify it, swap it in, and keep
 * the original as a dated backup until it is removed here. OpenCode must be stopped.
 */
export function ReclaimPanel(props: { writable: boolean; onDone?: () => void }) {
  const api = useApi()
  const [tick, setTick] = createSignal(0)
  const [message, setMessage] = createSignal<string>()
  const [keepBackup, setKeepBackup] = createSignal(true)
  const status = createQuery(() => tick(), (_t, signal) => api.storage.reclaimStatus.query(undefined, { signal }))
  const running = () => (status.data()?.state.state === 'running' ? (status.data()?.state as Running) : undefined)
  const finished = () => (status.data()?.state.state === 'finished' ? (status.data()?.state as Finished) : undefined)
  let timer: ReturnType<typeof setTimeout> | undefined
  createEffect(() => {
    clearTimeout(timer)
    if (running()) timer = setTimeout(() => setTick((n) => n + 1), 500)
  })
  createEffect((was: boolean | undefined) => {
    const now = !!running()
    if (was && !now) props.onDone?.()
    return now
  })
  onCleanup(() => clearTimeout(timer))

  async function act(call: () => Promise<{ status: string; detail?: string }>) {
    setMessage(undefined)
    try {
      const answer = await call()
      if (answer.status === 'refused') setMessage(answer.detail)
    } catch (error) {
      setMessage(describeProblem(error).detail)
    }
    setTick((n) => n + 1)
  }
  const start = () => act(() => api.storage.reclaim.mutate({ confirm: 'reclaim', keepBackup: keepBackup() }))
  const remove = (stamp: string) => act(async () => ({ status: 'removed', ...(await api.storage.removeBackup.mutate({ stamp })) }))
  const progress = (r: Running) => (r.phase === 'copy' ? Math.min(1, r.copyBytes / Math.max(1, r.expectedBytes)) : r.phase === 'starting' ? 0 : 1)

  return (
    <section class="reclaim" aria-label="Reclaim space">
      <h2>Reclaim space</h2>
      <p class="muted small">
        SQLite keeps a file's size after rows shrink. Reclaiming writes a compacted copy beside the database (VACUUM INTO), checks it, then swaps it in
        with one rename; the original stays as a dated backup until you remove it. It needs OpenCode stopped and free disk about the size of the data.
      </p>
      <Show when={status.data()}>
        {(s) => (
          <>
            <div class="reclaim-figures">
              <div class="reclaim-figure"><span>Database</span><strong>{formatBytes(s().files.db)}</strong></div>
              <div class="reclaim-figure"><span>Write-ahead log</span><strong>{formatBytes(s().files.wal)}</strong></div>
              <div class="reclaim-figure"><span>Free inside the file</span><strong>{formatBytes(s().freeBytes)}</strong></div>
              <div class="reclaim-figure"><span>Free on disk</span><strong>{formatBytes(s().diskFreeBytes)}</strong></div>
            </div>
            <Show when={s().holders.length > 0 && !running()}>
              <div class="banner banner-warn" role="note">
                <strong>OpenCode has this file open</strong> (process {s().holders.join(', ')}). Stop OpenCode, then press Reclaim.
              </div>
            </Show>
            <Switch>
              <Match when={running()}>
                {(r) => (
                  <div role="status">
                    <span>{PHASES[r().phase]}</span>
                    <progress max={1} value={progress(r())} aria-label="Reclaim progress" />
                  </div>
                )}
              </Match>
              <Match when={finished()?.result}>
                {(result) => (
                  <div class="banner" classList={{ 'banner-info': result().status === 'done', 'banner-warn': result().status !== 'done' }} role="status">
                    <strong>{formatBytes(total(result().before))} → {formatBytes(total(result().after))}</strong> (database and write-ahead log).{' '}
                    {result().status === 'done' ? (result() as Extract<Finished['result'], { status: 'done' }>).message : (result() as { detail: string }).detail}
                  </div>
                )}
              </Match>
            </Switch>
            <Show when={s().backups.length > 0}>
              <h3>Backups kept beside the database</h3>
              <ul class="reclaim-backups">
                <For each={s().backups}>
                  {(b) => (
                    <li>
                      <code>opencode.db.backup-{b.stamp}</code> <span class="muted">{formatBytes(b.bytes)}</span>{' '}
                      <button type="button" class="button button-quiet" onClick={() => void remove(b.stamp)}>Remove</button>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </>
        )}
      </Show>
      <Show when={message()}>
        <div class="banner banner-warn" role="alert">{message()}</div>
      </Show>
      <div class="reclaim-actions">
        <button type="button" class="button button-primary" disabled={!props.writable || !!running() || (status.data()?.holders.length ?? 0) > 0} onClick={() => void start()}>
          {running() ? 'Reclaiming…' : 'Reclaim space'}
        </button>
        <label class="small">
          <input type="checkbox" checked={keepBackup()} onChange={(e) => setKeepBackup(e.currentTarget.checked)} /> Keep the original as a backup
        </label>
        <Show when={!props.writable}><span class="muted small">Loupe cannot write to this database.</span></Show>
      </div>
    </section>
  )
}

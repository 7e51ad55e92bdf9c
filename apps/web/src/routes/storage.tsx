import { createSignal, For, Match, Show, Switch } from 'solid-js'
import { ErrorPanel } from '../components/error-panel'
import { CleanSection } from '../features/storage/clean-section'
import { CompactPanel } from '../features/storage/compact-panel'
import { DoctorSection } from '../features/storage/doctor-section'
import { ReadOnlyBanner } from '../features/storage/read-only-banner'
import { ReclaimPanel } from '../features/storage/reclaim-panel'
import { ListSkeleton } from '../components/skeleton'
import { useStorageInfo } from '../features/storage/storage.data'
import { formatBytes } from '../lib/format'
import { useTitle } from '../lib/title'

/** `/storage`: which file Loupe opened, what is in it, and what Loupe may do with it. */
export function StorageRoute() {
  const storage = useStorageInfo()
  const [changes, setChanges] = createSignal(0)
  useTitle(() => 'Storage')
  return (
    <div class="page page-narrow storage-page">
      <div class="page-head">
        <h1>Storage</h1>
        <button type="button" class="button button-quiet" onClick={() => storage.refetch()} disabled={storage.loading()}>
          Refresh
        </button>
      </div>
      <Switch>
        <Match when={storage.error()}>
          <ErrorPanel error={storage.error()} onRetry={storage.refetch} />
        </Match>
        <Match when={storage.data()}>
          {(info) => (
            <>
              <ReadOnlyBanner supported={info().supported} migrations={info().migrations} />
              <dl class="facts">
                <dt>Database</dt>
                <dd><code class="path">{info().path}</code>{info().demo ? ' (demo)' : ''}</dd>
                <dt>Size</dt>
                <dd>{formatBytes(info().sizeBytes)}<Show when={info().walBytes > 0}> + {formatBytes(info().walBytes)} write-ahead log</Show></dd>
                <dt>Storage</dt>
                <dd>
                  <For each={info().generations}>
                    {(g) => <span class="chip">{g.generation === 'v2' ? 'OpenCode 2.x' : 'OpenCode 1.x'}{g.experimental ? ' (experimental)' : ''}</span>}
                  </For>
                </dd>
                <dt>Written by</dt>
                <dd>{info().opencodeVersions.length ? info().opencodeVersions.map((v) => `OpenCode ${v}`).join(', ') : 'unknown version'}</dd>
                <dt>Migrations</dt>
                <dd>{info().migrations.count} applied, last <code>{info().migrations.last ?? '—'}</code><Show when={info().migrations.unknown.length > 0}> · {info().migrations.unknown.length} newer than Loupe knows</Show></dd>
                <dt>Event log</dt>
                <dd>{info().eventLog ? 'present: every change is also kept as an event' : 'absent'}</dd>
                <dt>Access</dt>
                <dd>{info().supported.write ? 'Read and write' : info().supported.read ? 'Read-only' : 'None'}</dd>
                <dt>Serving</dt>
                <dd>{info().lan.host}:{info().lan.port}<Show when={info().lan.addresses.length > 0}> · LAN {info().lan.addresses.join(', ')}</Show></dd>
              </dl>
              <Show when={info().supported.read}>
                <DoctorSection version={changes()} />
              </Show>
              <CleanSection writable={info().supported.write} onDone={() => setChanges((n) => n + 1)} />
              <CompactPanel
                writable={info().supported.write}
                onDone={() => {
                  storage.refetch()
                  setChanges((n) => n + 1)
                }}
              />
              <ReclaimPanel
                writable={info().supported.write}
                onDone={() => {
                  storage.refetch()
                  setChanges((n) => n + 1)
                }}
              />
            </>
          )}
        </Match>
        <Match when={true}>
          <ListSkeleton rows={6} />
        </Match>
      </Switch>
    </div>
  )
}

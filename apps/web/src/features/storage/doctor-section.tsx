import { createEffect, Match, on, Switch } from 'solid-js'
import { ErrorPanel } from '../../components/error-panel'
import { useApi } from '../../lib/api-context'
import { formatDuration } from '../../lib/format'
import { createDoctor } from './doctor.data'
import { DoctorView } from './doctor-view'

const PHASES: Record<string, string> = {
  tables: 'Measuring tables…',
  events: 'Reading the event log…',
  sessions: 'Adding up sessions…',
  content: 'Sorting tool output, reasoning and images…',
  dataDir: "Measuring OpenCode's data folder…",
}

/** "Where the bytes are": the storage doctor on the Storage page. */
export function DoctorSection(props: { version?: number }) {
  const doctor = createDoctor(useApi())
  // The page bumps `version` when a reclaim finished: the file changed under the report.
  createEffect(on(() => props.version, () => doctor.reload(), { defer: true }))
  const status = () => doctor.status()
  const done = () => {
    const s = status()
    return s?.state === 'done' ? s : undefined
  }
  const failed = () => {
    const s = status()
    return s?.state === 'failed' ? s : undefined
  }
  const progress = () => {
    const s = status()
    return s?.state === 'running' ? s.progress : { phase: 'tables', fraction: 0 }
  }
  return (
    <section class="doctor" aria-label="Where the bytes are">
      <div class="page-head">
        <h2>Where the bytes are</h2>
        <button type="button" class="button button-quiet" onClick={() => doctor.refresh()} disabled={status()?.state === 'running'}>
          Scan again
        </button>
      </div>
      <Switch>
        <Match when={doctor.error()}>
          <ErrorPanel error={doctor.error()} onRetry={doctor.refresh} />
        </Match>
        <Match when={failed()}>{(f) => <div class="banner banner-warn" role="alert">{f().message}</div>}</Match>
        <Match when={done()}>
          {(d) => (
            <>
              <p class="muted small">Scanned in {formatDuration(d().report.tookMs)}; the report is kept until the database changes.</p>
              <DoctorView report={d().report} />
            </>
          )}
        </Match>
        <Match when={true}>
          <div role="status">
            <span>{PHASES[progress().phase] ?? 'Scanning…'}</span>
            <progress max={1} value={progress().fraction} aria-label="Scan progress" />
          </div>
        </Match>
      </Switch>
    </section>
  )
}

import { A } from '@solidjs/router'
import { Match, Switch } from 'solid-js'
import { ErrorPanel } from '../../components/error-panel'
import { useApi } from '../../lib/api-context'
import { formatBytes } from '../../lib/format'
import { DoctorChart } from '../storage/doctor-chart'
import { contentRows, eventLogBytes } from '../storage/doctor-view'
import { createDoctor, type DoctorReport } from '../storage/doctor.data'

/** "Where the bytes are", in short: the storage doctor's figures for the whole file, with the way to the full report. */
export function BytesSummary() {
  const doctor = createDoctor(useApi())
  const status = () => doctor.status()
  const report = () => {
    const s = status()
    return s?.state === 'done' ? s.report : undefined
  }
  const failed = () => {
    const s = status()
    return s?.state === 'failed' ? s.message : undefined
  }
  const fraction = () => {
    const s = status()
    return s?.state === 'running' ? s.progress.fraction : 0
  }
  return (
    <section class="overview-section overview-card" aria-label="Where the bytes are">
      <h2>Where the bytes are</h2>
      <Switch>
        <Match when={doctor.error()}>
          <ErrorPanel error={doctor.error()} onRetry={doctor.refresh} />
        </Match>
        <Match when={failed()}>{(message) => <div class="banner banner-warn" role="alert">{message()} <A href="/storage">Open the Storage page</A> to scan again.</div>}</Match>
        <Match when={report()}>{(r) => <BytesFigures report={r()} />}</Match>
        <Match when={true}>
          <div role="status">
            <span>Measuring the file…</span>
            <progress max={1} value={fraction()} aria-label="Scan progress" />
          </div>
        </Match>
      </Switch>
    </section>
  )
}

function BytesFigures(props: { report: DoctorReport }) {
  const r = () => props.report
  const events = () => eventLogBytes(r().events)
  return (
    <>
      <div class="doctor-facts">
        <div class="reclaim-figure"><span>File</span><strong>{formatBytes(r().files.db + r().files.wal)}</strong></div>
        <div class="reclaim-figure"><span>Event log</span><strong>{formatBytes(events())}</strong></div>
        <div class="reclaim-figure"><span>Superseded snapshots</span><strong>{formatBytes(r().events.superseded)}</strong></div>
        <div class="reclaim-figure"><span>Free pages</span><strong>{formatBytes(r().files.freeBytes)}</strong></div>
      </div>
      <DoctorChart
        title="Conversation content"
        kind="bar"
        summary="Bytes of the current parts by content"
        rows={contentRows(r().content)}
      />
      <p class="small"><A href="/storage">The full report</A>: tables, projects, the biggest sessions by bytes, and compaction.</p>
    </>
  )
}

import { A } from '@solidjs/router'
import { For, Show } from 'solid-js'
import { EmptyState } from '../../components/empty-state'
import { formatBytes, plural } from '../../lib/format'
import { sessionHref } from '../../lib/links'
import { DoctorChart, type ChartRow } from './doctor-chart'
import type { DoctorReport } from './doctor.data'

const TABLE_COLORS = ['--c-events', '--c-tool', '--c-text', '--c-info', '--c-reasoning', '--c-file', '--c-step', '--c-other']
const FOLDERS = [['storage', 'storage/'], ['toolOutput', 'tool-output/'], ['snapshot', 'snapshot/'], ['log', 'log/']] as const

function tableRows(tables: Record<string, number>): ChartRow[] {
  const sorted = Object.entries(tables).filter(([, b]) => b > 0).sort((a, b) => b[1] - a[1])
  const top = sorted.slice(0, 7).map(([label, bytes], i) => ({ label, bytes, color: TABLE_COLORS[i] ?? '--c-other' }))
  const rest = sorted.slice(7).reduce((n, [, b]) => n + b, 0)
  return rest > 0 ? [...top, { label: 'other tables', bytes: rest, color: '--c-other' }] : top
}

/** The doctor's report: charts where a person would rather look, each with its table; sessions link to their page. */
/** The event log's bytes: current, superseded and already redacted events together. */
export const eventLogBytes = (events: DoctorReport['events']) => events.current + events.superseded + events.redacted

/** The current parts' bytes by kind of content: the full report and the Overview's summary draw the same bars. */
export function contentRows(content: DoctorReport['content']): ChartRow[] {
  return [
    { label: 'tool output', bytes: content.toolOutput, color: '--c-tool' },
    { label: 'reasoning', bytes: content.reasoning, color: '--c-reasoning' },
    { label: 'images', bytes: content.images, color: '--c-file' },
    { label: 'text', bytes: content.text, color: '--c-text' },
  ]
}

export function DoctorView(props: { report: DoctorReport }) {
  const r = () => props.report
  const eventTotal = () => eventLogBytes(r().events)
  const maxSession = () => r().sessions[0]?.bytes || 1
  return (
    <Show
      when={r().sessionCount > 0}
      fallback={
        <EmptyState title="No sessions in this database yet" compact>
          <p>Once OpenCode has stored conversations here, this shows where their bytes go: the event log, tool output, reasoning and images.</p>
        </EmptyState>
      }
    >
      <div class="doctor-facts">
        <div class="reclaim-figure"><span>Event log</span><strong>{formatBytes(eventTotal())}</strong></div>
        <div class="reclaim-figure"><span>Superseded snapshots</span><strong>{formatBytes(r().events.superseded)}</strong></div>
        <div class="reclaim-figure"><span>Free pages</span><strong>{formatBytes(r().files.freeBytes)}</strong></div>
        <div class="reclaim-figure"><span>Write-ahead log</span><strong>{formatBytes(r().files.wal)}</strong></div>
      </div>
      <Show when={r().events.superseded > 0}>
        <p class="muted small">
          {plural(r().eventCounts.superseded, 'superseded snapshot')} hold {formatBytes(r().events.superseded)}: older copies of parts, messages and sessions
          that a newer event of the same one replaces. Compacting the event log gives them back.
        </p>
      </Show>
      <div class="doctor-charts">
        <DoctorChart
          title="Event log"
          kind="doughnut"
          summary="Event-log bytes by state"
          rows={[
            { label: 'current', bytes: r().events.current, color: '--c-text' },
            { label: 'superseded snapshots', bytes: r().events.superseded, color: '--c-events' },
            { label: 'already redacted', bytes: r().events.redacted, color: '--c-step' },
          ]}
        />
        <DoctorChart title="Tables" kind="bar" summary="Bytes by table" rows={tableRows(r().tables)} />
        <DoctorChart
          title="Conversation content"
          kind="bar"
          summary="Bytes of the current parts by content"
          rows={contentRows(r().content)}
        />
      </div>
      <h3>Biggest sessions <span class="muted small">({r().sessions.length} of {r().sessionCount})</span></h3>
      <table class="doctor-sessions">
        <thead>
          <tr><th scope="col">Session</th><th scope="col" class="num">Bytes</th><th scope="col" class="num">Event log</th><th scope="col" class="num">Superseded</th></tr>
        </thead>
        <tbody>
          <For each={r().sessions}>
            {(s) => (
              <tr>
                <td>
                  <span class="doctor-bar" aria-hidden="true" style={{ width: `${(s.bytes / maxSession()) * 100}%` }} />
                  <A href={sessionHref({ id: s.id, storage: s.storage }, { tab: 'bytes' })}>{s.title || s.id}</A>
                </td>
                <td class="num">{formatBytes(s.bytes)}</td>
                <td class="num">{formatBytes(s.eventBytes)}</td>
                <td class="num">{formatBytes(s.supersededBytes)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <h3>Projects</h3>
      <table class="doctor-sessions">
        <thead>
          <tr><th scope="col">Project</th><th scope="col" class="num">Sessions</th><th scope="col" class="num">Bytes</th><th scope="col" class="num">Event log</th></tr>
        </thead>
        <tbody>
          <For each={r().projects}>
            {(p) => (
              <tr>
                <td><A href={`/sessions?project=${encodeURIComponent(p.id)}`} title={p.id}>{p.name}</A></td>
                <td class="num">{p.sessions.toLocaleString()}</td>
                <td class="num">{formatBytes(p.bytes)}</td>
                <td class="num">{formatBytes(p.eventBytes)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <h3>OpenCode's data folder <span class="muted small">(read only)</span></h3>
      <dl class="facts">
        <dt>Folder</dt>
        <dd><code class="path">{r().dataDir.path}</code></dd>
        <For each={FOLDERS}>
          {([key, label]) => (
            <>
              <dt><code>{label}</code></dt>
              <dd>{r().dataDir[key] ? `${formatBytes(r().dataDir[key]?.bytes ?? 0)} in ${plural(r().dataDir[key]?.files ?? 0, 'file')}${r().dataDir[key]?.partial ? ' (at least)' : ''}` : 'absent'}</dd>
            </>
          )}
        </For>
      </dl>
    </Show>
  )
}

import { For, Show } from 'solid-js'
import { A } from '@solidjs/router'
import { useApi } from '../../lib/api-context'
import { formatBytes, plural } from '../../lib/format'
import { createCompactState, type CompactAnswer, type CompactRun } from './compact.data'

const saved = (a: CompactAnswer) => Math.max(0, a.eventBytesBefore - a.eventBytesAfter)
const progressOf = (run: CompactRun | undefined) =>
  run?.state === 'running' && run.progress ? run.progress.eventBytesDone / Math.max(1, run.progress.eventBytesTotal) : undefined

function Outcome(props: { answer: CompactAnswer }) {
  const a = () => props.answer
  const verb = () => (a().dryRun ? 'would redact' : 'redacted')
  const top = () => a().perSession.filter((s) => s.eventsRedacted > 0).sort((x, y) => y.eventBytesBefore - y.eventBytesAfter - (x.eventBytesBefore - x.eventBytesAfter)).slice(0, 8)
  return (
    <div class="compact-outcome" role="status">
      <div class="reclaim-figures">
        <div class="reclaim-figure"><span>Event log</span><strong>{formatBytes(a().eventBytesBefore)}</strong></div>
        <div class="reclaim-figure"><span>{a().dryRun ? 'After compaction' : 'Now'}</span><strong>{formatBytes(a().eventBytesAfter)}</strong></div>
        <div class="reclaim-figure"><span>{a().dryRun ? 'Would go' : 'Gone'}</span><strong>{formatBytes(saved(a()))}</strong></div>
      </div>
      <p class="small">
        {a().status === 'refused' ? a().detail : `Loupe ${verb()} ${plural(a().eventsRedacted, 'superseded snapshot')} in ${plural(a().sessions, 'session')}.`}
        <Show when={a().status === 'stopped'}> Stopped: {a().detail}</Show>
        <Show when={!a().dryRun && a().eventsRedacted > 0}> The file keeps its size until you reclaim space below.</Show>
      </p>
      <Show when={top().length > 0}>
        <table class="compact-sessions">
          <thead><tr><th>Session</th><th>Snapshots</th><th>Event log</th></tr></thead>
          <tbody>
            <For each={top()}>
              {(s) => (
                <tr>
                  <td><A href={`/sessions/${s.sessionID}`}>{s.title || s.sessionID}</A></td>
                  <td>{s.eventsRedacted.toLocaleString()}</td>
                  <td>{formatBytes(s.eventBytesBefore)} → {formatBytes(s.eventBytesAfter)}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
      <Show when={a().refused.length > 0}>
        <details>
          <summary>{plural(a().refused.length, 'session')} left as they are</summary>
          <ul class="small"><For each={a().refused}>{(r) => <li><code>{r.sessionID}</code>: {r.reason}</li>}</For></ul>
        </details>
      </Show>
      <For each={a().notes}>{(note) => <p class="muted small">{note}</p>}</For>
    </div>
  )
}

/**
 * "Compact the event log": OpenCode 1.x stores every intermediate state of a part, message and
 * session in its event log; this redacts the superseded copies in place (the newest stays whole),
 * first as a dry run that says what would go.
 */
export function CompactPanel(props: { writable: boolean; onDone?: () => void }) {
  const state = createCompactState(useApi(), () => props.onDone?.())
  const canWrite = () => props.writable && state.busy() === null && (state.answer()?.dryRun ?? false) && (state.answer()?.eventsRedacted ?? 0) > 0
  return (
    <section class="reclaim compact-panel" aria-label="Compact the event log">
      <h2>Compact the event log</h2>
      <p class="muted small">
        OpenCode keeps a full copy of a tool call, message or session every time it changes, so a long command's output is stored hundreds of times.
        Compacting replaces every copy but the newest with a minimal one; your conversations, and a replay of the log, stay exactly as they are.
        Sessions OpenCode is running, or that sync with a workspace, are left alone.
      </p>
      <Show when={state.answer()}>{(a) => <Outcome answer={a()} />}</Show>
      <Show when={state.busy() === 'compacting'}>
        <div role="status">
          <span>{state.run()?.state === 'running' && (state.run() as Extract<CompactRun, { state: 'running' }>).stopping ? 'Stopping after this batch…' : 'Compacting…'}</span>
          <progress max={1} value={progressOf(state.run()) ?? 0} aria-label="Compaction progress" />
        </div>
      </Show>
      <Show when={state.problem()}><div class="banner banner-warn" role="alert">{state.problem()}</div></Show>
      <div class="reclaim-actions">
        <button type="button" class="button" disabled={state.busy() !== null} onClick={() => void state.check()}>
          {state.busy() === 'checking' ? 'Checking…' : 'Check what would go'}
        </button>
        <button type="button" class="button button-primary" disabled={!canWrite()} onClick={() => void state.compact()}>Compact</button>
        <Show when={state.busy() === 'compacting'}>
          <button type="button" class="button button-quiet" onClick={() => void state.stop()}>Stop</button>
        </Show>
        <Show when={!props.writable}><span class="muted small">Loupe cannot write to this database.</span></Show>
      </div>
    </section>
  )
}

import { A } from '@solidjs/router'
import { createSignal, Match, Show, Switch } from 'solid-js'
import { ErrorPanel } from '../../components/error-panel'
import { useApi } from '../../lib/api-context'
import { formatBytes, formatCount, plural } from '../../lib/format'
import { AUTO_ESTIMATE_MAX_BYTES, CLEAN_IDLE_DAYS, createCleanEstimate } from './overview.data'

/** What the Storage page's clean-up would save with its default rule; nothing is applied from here. */
export function CleanupEstimate(props: { fileBytes: number }) {
  const [asked, setAsked] = createSignal(props.fileBytes <= AUTO_ESTIMATE_MAX_BYTES)
  const estimate = createCleanEstimate(useApi(), asked)
  return (
    <section class="overview-section overview-card" aria-label="What a clean-up would save">
      <h2>What a clean-up would save</h2>
      <Switch>
        <Match when={estimate.error()}>
          <ErrorPanel error={estimate.error()} onRetry={estimate.refetch} />
        </Match>
        <Match when={estimate.data()}>
          {(plan) => (
            <Show
              when={plan().sessions > 0}
              fallback={<p class="muted">No session idle for {CLEAN_IDLE_DAYS} days or more has tool calls or reasoning left to remove.</p>}
            >
              <div class="doctor-facts">
                <div class="reclaim-figure"><span>Stored content</span><strong>{formatBytes(plan().bytes)}</strong></div>
                <div class="reclaim-figure"><span>Context tokens</span><strong>{formatCount(plan().tokens)}</strong></div>
                <div class="reclaim-figure"><span>Parts</span><strong>{plan().parts.toLocaleString()}</strong></div>
              </div>
              <p class="small">
                Removing the tool calls and reasoning of {plural(plan().sessions, 'session')} idle for {CLEAN_IDLE_DAYS} days or more.
                <Show when={plan().skipped.length > 0}> {plural(plan().skipped.length, 'idle session')} would be left alone (OpenCode is using them or they are compacting).</Show>
              </p>
            </Show>
          )}
        </Match>
        <Match when={!asked()}>
          <p class="small muted">Working this out reads every session idle for {CLEAN_IDLE_DAYS} days or more, which takes a while on a file of {formatBytes(props.fileBytes)}.</p>
          <button type="button" class="button" onClick={() => setAsked(true)}>Estimate the savings</button>
        </Match>
        <Match when={true}>
          <p role="status" aria-busy="true">Working out what a clean-up would remove…</p>
        </Match>
      </Switch>
      <p class="small"><A href="/storage#clean-up">Review and clean up on the Storage page</A>; you see every session first.</p>
    </section>
  )
}

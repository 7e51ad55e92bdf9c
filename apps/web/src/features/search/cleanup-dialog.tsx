import { A } from '@solidjs/router'
import { For, Match, Show, Switch } from 'solid-js'
import { Modal } from '../../components/modal'
import { describeProblem } from '../../lib/errors'
import { formatAbsoluteTime, formatBytes, plural, quoteTyped, shortDirectory, technicalParts } from '../../lib/format'
import { lockHeadline } from '../pruning/live-lock'
import { describeTokenSplit, TOKEN_SPLIT_HINT } from '../pruning/token-split'
import type { Candidates, Cleanup, CleanupProgress } from './cleanup.data'

const REASONS: Record<string, string> = {
  conflict: 'changed since the plan',
  not_deletable: 'cannot be pruned',
  maintenance_required: 'busy right now',
  unsupported_storage: 'storage Loupe does not edit',
  unavailable: 'database unavailable',
}

type PlannedSession = Candidates['sessions'][number]

const bytesOf = (s: PlannedSession) => s.candidates.reduce((n, c) => n + c.bytes, 0)
const partsOf = (s: PlannedSession) => s.candidates.reduce((n, c) => n + c.toolCount + c.reasoningCount, 0)
/** When the session's newest matching message finished: with the place and the id, it tells sessions of one title apart. */
const lastMatchAt = (s: PlannedSession) => s.candidates.reduce<number | null>((at, c) => (c.completedAt !== null && (at === null || c.completedAt > at) ? c.completedAt : at), null)
const formatDay = (at: number) => new Date(at).toLocaleDateString(undefined, { dateStyle: 'medium' })

/** What the whole clean-up faces before it starts, when one round does not cover it (rounds of a few thousand messages). */
function AllRounds(props: { candidates: Candidates }) {
  return (
    <Show when={props.candidates.truncated}>
      <p class="banner banner-info small cleanup-rounds">
        In all, {props.candidates.matched.atLeast ? 'at least ' : ''}{plural(props.candidates.matched.messages, 'message')} hold a matching tool call or
        reasoning. The figures above are the first round; Loupe plans and prunes the rest in further rounds until none is left or you stop.
      </p>
    </Show>
  )
}

function Plan(props: { candidates: Candidates; query: string }) {
  const t = () => props.candidates.totals
  const split = () => {
    const all = props.candidates.sessions.flatMap((s) => s.candidates)
    const storageOnlyTokens = all.reduce((n, c) => n + (c.storageOnly ? c.tokens : 0), 0)
    return { contextTokens: t().tokens - storageOnlyTokens, storageOnlyTokens }
  }
  return (
    <>
      <p class="prune-totals">
        <strong>{formatBytes(t().bytes)}</strong>: {technicalParts(t().tools, t().reasoning)} in{' '}
        {plural(t().messages, 'message')} across {plural(t().sessions, 'session')}.{' '}
        <span class="prune-token-split" title={TOKEN_SPLIT_HINT}>Frees {describeTokenSplit(split())}.</span>
      </p>
      <AllRounds candidates={props.candidates} />
      <table class="prune-parts">
        <thead>
          <tr><th>Session</th><th class="num">Messages</th><th class="num">Parts</th><th class="num">Bytes</th></tr>
        </thead>
        <tbody>
          <For each={props.candidates.sessions.slice(0, 8)}>
            {(s) => (
              <tr>
                <td class="cleanup-where">
                  <div>
                    <span class="cleanup-session">{s.title || 'Untitled session'}</span>{' '}
                    <span class="cleanup-place">
                      <Show when={s.storage === 'v2'}><span class="chip chip-accent">2.x</span> </Show>
                      <Show when={lastMatchAt(s)}>{(at) => <span class="cleanup-when" title={`Last matching message finished ${formatAbsoluteTime(at())}`}>{formatDay(at())}</span>}</Show>
                      <Show when={s.directory}><span class="hit-group-dir" title={s.directory}><bdi>{shortDirectory(s.directory)}</bdi></span></Show>
                      <code class="cleanup-id" title="Session id">{s.sessionID}</code>
                    </span>
                  </div>
                </td>
                <td class="num">{s.candidates.length}</td>
                <td class="num">{partsOf(s)}</td>
                <td class="num">{formatBytes(bytesOf(s))}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <Show when={props.candidates.sessions.length > 8}>
        <p class="muted small">…and {plural(props.candidates.sessions.length - 8, 'more session')}.</p>
      </Show>
    </>
  )
}

/** Sessions OpenCode may be running: the clean-up leaves them out, and says why before anyone confirms. */
export function LockedSessions(props: { candidates: Pick<Candidates, 'locked'> }) {
  return (
    <Show when={props.candidates.locked.length > 0}>
      <div class="banner banner-warn live-lock" role="status">
        <strong>{plural(props.candidates.locked.length, 'session')} left out: OpenCode may be running {props.candidates.locked.length === 1 ? 'it' : 'them'}.</strong>
        <ul>
          <For each={props.candidates.locked.slice(0, 8)}>
            {(s) => (
              <li>
                <span class="cleanup-session">{s.title || 'Untitled session'}</span> ({plural(s.messages, 'message')}):{' '}
                <span class="chip chip-warn">{lockHeadline(s.lock)}</span> {s.lock.detail} <span class="live-lock-fix">{s.lock.fix}</span>
              </li>
            )}
          </For>
        </ul>
      </div>
    </Show>
  )
}

function Skipped(props: { candidates: Candidates }) {
  return (
    <Show when={props.candidates.skipped.length > 0 || props.candidates.alreadyClean > 0}>
      <details class="prune-refused">
        <summary>
          {plural(props.candidates.skipped.reduce((n, s) => n + s.count, 0) + props.candidates.alreadyClean, 'matching message')} left as they are
        </summary>
        <ul>
          <Show when={props.candidates.alreadyClean > 0}>
            <li><span class="chip">nothing left</span> {plural(props.candidates.alreadyClean, 'message')} whose matching tool calls and reasoning are gone already.</li>
          </Show>
          <For each={props.candidates.skipped}>
            {(s) => <li><span class="chip chip-warn">{REASONS[s.reason] ?? s.reason}</span> {plural(s.count, 'message')}: {s.detail}</li>}
          </For>
        </ul>
      </details>
    </Show>
  )
}

function Outcome(props: { progress: CleanupProgress; cancelled: boolean }) {
  return (
    <>
      <p>
        Removed {props.progress.tools + props.progress.reasoning > 0 ? technicalParts(props.progress.tools, props.progress.reasoning) : plural(props.progress.removedParts, 'part')}{' '}
        ({formatBytes(props.progress.bytes)}) from {plural(props.progress.pruned, 'message')}.
        <Show when={props.cancelled}> Stopped: the rest is untouched; run the clean-up again to continue.</Show>
      </p>
      <Show when={props.progress.refused.length > 0}>
        <details class="prune-refused" open={props.progress.refused.length <= 3}>
          <summary>{plural(props.progress.refused.length, 'message')} refused</summary>
          <ul>
            <For each={props.progress.refused.slice(0, 50)}>{(r) => <li><span class="chip chip-warn">{REASONS[r.reason] ?? r.reason}</span> {r.detail}</li>}</For>
          </ul>
        </details>
      </Show>
      <p class="muted small">The pruned bytes are gone from the conversations and the event log. To shrink the file itself, use <A href="/storage">Reclaim space</A>.</p>
    </>
  )
}

/** "Clean up matching": what the search's hits would free, confirm, progress with stop, outcome. */
export function CleanupDialog(props: { cleanup: Cleanup; query: string; capped: boolean }) {
  const state = () => props.cleanup.state()
  return (
    <Show when={state().phase !== 'closed'}>
      <Modal label="Clean up matching" class="prune-dialog cleanup-dialog" onClose={() => props.cleanup.close()}>
        <Switch>
          <Match when={state().phase === 'loading'}>
            <p class="muted" aria-busy="true">Finding the messages behind these results…</p>
          </Match>
          <Match when={state().phase === 'error' && (state() as { error: unknown })}>
            {(s) => {
              const problem = describeProblem(s().error)
              return <div class="banner banner-warn"><strong>{problem.title}.</strong> {problem.detail} {problem.hint}</div>
            }}
          </Match>
          <Match when={state().phase === 'review' && (state() as { candidates: Candidates })}>
            {(s) => (
              <>
                <Show
                  when={s().candidates.totals.messages > 0}
                  fallback={
                    <>
                      <h2>Nothing left to clean up</h2>
                      <p>No finished tool call or reasoning that matches {quoteTyped(props.query)} is left to remove. Matches in text and user messages are never removed.</p>
                      <LockedSessions candidates={s().candidates} />
                      <Skipped candidates={s().candidates} />
                      <div class="dialog-actions">
                        <button type="button" class="button" onClick={() => props.cleanup.close()} autofocus>Close</button>
                      </div>
                    </>
                  }
                >
                  <h2>Remove the tool calls and reasoning that match {quoteTyped(props.query)}?</h2>
                  <Plan candidates={s().candidates} query={props.query} />
                  <LockedSessions candidates={s().candidates} />
                  <Show when={props.capped}>
                    <p class="banner banner-warn small">This covers every match, also the older ones the results list leaves out (it ranks only the newest).</p>
                  </Show>
                  <p class="muted small">
                    Only the matching tool calls and reasoning of finished assistant messages go; the rest of each message (its text, its other
                    tool calls), user messages and token totals stay. Each message is pruned only if it is still exactly as planned.
                  </p>
                  <Skipped candidates={s().candidates} />
                  <div class="dialog-actions">
                    <button type="button" class="button button-quiet" onClick={() => props.cleanup.close()}>Keep everything</button>
                    <button type="button" class="button button-danger" onClick={() => void props.cleanup.confirm()} autofocus>
                      Remove {technicalParts(s().candidates.totals.tools, s().candidates.totals.reasoning)}
                      <Show when={s().candidates.truncated}> and go on</Show>
                    </button>
                  </div>
                </Show>
              </>
            )}
          </Match>
          <Match when={state().phase === 'running' && (state() as { progress: CleanupProgress })}>
            {(s) => (
              <>
                <h2>Cleaning up…</h2>
                <progress class="prune-progress" max={Math.max(1, s().progress.total)} value={s().progress.done} aria-label="Messages done" />
                <p class="muted">
                  {s().progress.done} of {plural(s().progress.total, 'message')} · {plural(s().progress.removedParts, 'part')} removed · {formatBytes(s().progress.bytes)}
                </p>
                <div class="dialog-actions">
                  <button type="button" class="button" onClick={() => props.cleanup.cancel()}>Stop after this batch</button>
                </div>
              </>
            )}
          </Match>
          <Match when={state().phase === 'done' && (state() as { progress: CleanupProgress; cancelled: boolean })}>
            {(s) => (
              <>
                <h2>{s().cancelled ? 'Stopped' : 'Done'}</h2>
                <Outcome progress={s().progress} cancelled={s().cancelled} />
                <div class="dialog-actions">
                  <button type="button" class="button" onClick={() => props.cleanup.close()} autofocus>Close</button>
                </div>
              </>
            )}
          </Match>
        </Switch>
      </Modal>
    </Show>
  )
}

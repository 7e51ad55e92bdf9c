import { LIMITS, toolStatusWord } from '@loupe/domain'
import { A } from '@solidjs/router'
import { createSignal, For, Match, Show, Switch } from 'solid-js'
import { Modal } from '../../components/modal'
import { describeProblem } from '../../lib/errors'
import { formatAbsoluteTime, formatBytes, formatCount, plural, technicalParts } from '../../lib/format'
import { reviewTotals, type ForkReview, type Refusal, type Review, type ReviewMessage } from './pruning.data'
import type { Pruning } from './pruning-state'
import { describeTokenSplit, TOKEN_SPLIT_HINT } from './token-split'

const REASONS: Record<string, string> = {
  conflict: 'changed since you looked',
  not_deletable: 'cannot be pruned',
  maintenance_required: 'busy right now',
  unsupported_storage: 'storage Loupe does not edit',
  unavailable: 'database unavailable',
  missing: 'part is gone',
  ambiguous: 'ambiguous',
}

function Refusals(props: { refused: Refusal[] }) {
  return (
    <Show when={props.refused.length > 0}>
      <details class="prune-refused" open={props.refused.length <= 3}>
        <summary>{plural(props.refused.length, 'message')} left as they are</summary>
        <ul>
          <For each={props.refused.slice(0, 50)}>
            {(r) => (
              <li>
                <span class="chip chip-warn">{REASONS[r.reason] ?? r.reason}</span> {r.detail}
              </li>
            )}
          </For>
        </ul>
      </details>
    </Show>
  )
}

/** A message before the latest completed compaction: its tokens are marked as stored only. */
function Tokens(props: { tokens: number; storageOnly: boolean }) {
  return (
    <td class="num" classList={{ 'tokens-stored': props.storageOnly }} title={props.storageOnly ? 'Stored only: before the last compaction, the model no longer reads these' : 'Context: the model reads these'}>
      ~{formatCount(props.tokens)}
    </td>
  )
}

function PartRows(props: { messages: ReviewMessage[] }) {
  const rows = () => props.messages.flatMap((m) => m.parts.map((p) => ({ ...p, messageID: m.messageID, storageOnly: m.storageOnly })))
  return (
    <Show when={rows().length > 0}>
      <table class="prune-parts">
        <thead>
          <tr><th>Part</th><th>Status</th><th class="num">Bytes</th><th class="num">Tokens</th></tr>
        </thead>
        <tbody>
          <For each={rows().slice(0, 200)}>
            {(p) => (
              <tr>
                <td class="prune-part-name">
                  <span class={`prune-kind prune-kind-${p.type}`} aria-hidden="true" />
                  {p.type === 'tool' ? p.tool ?? 'tool' : 'Reasoning'}
                  <Show when={p.title}><span class="muted"> · {p.title}</span></Show>
                </td>
                <td><Show when={p.status}><span class={`badge badge-${p.status}`}>{toolStatusWord(p.status)}</span></Show></td>
                <td class="num">{formatBytes(p.bytes)}</td>
                <Tokens tokens={p.tokens} storageOnly={p.storageOnly} />
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </Show>
  )
}

/** When the message finished, which a person can match against the transcript; the id otherwise. */
const messageLabel = (completedAt: number | null, id: string) => (completedAt === null ? id : formatAbsoluteTime(completedAt))

function partsSummary(c: NonNullable<ReviewMessage['counts']>): string {
  const names = c.toolNames.length > 3 ? `${c.toolNames.slice(0, 3).join(', ')}, …` : c.toolNames.join(', ')
  const tools = c.tools ? `${plural(c.tools, 'tool call')}${names ? ` (${names})` : ''}` : ''
  return [tools, c.reasoning ? plural(c.reasoning, 'reasoning') : ''].filter(Boolean).join(', ')
}

/** A whole-session review has counts per message, not parts: one row per message, largest first. */
function MessageRows(props: { messages: ReviewMessage[] }) {
  const rows = () => props.messages.filter((m) => m.counts).sort((a, b) => (b.counts?.bytes ?? 0) - (a.counts?.bytes ?? 0))
  return (
    <Show when={rows().length > 0}>
      <table class="prune-parts">
        <thead>
          <tr><th>Message finished</th><th>Parts</th><th class="num">Bytes</th><th class="num">Tokens</th></tr>
        </thead>
        <tbody>
          <For each={rows().slice(0, 12)}>
            {(m) => (
              <tr>
                <td class="prune-part-name" title={m.messageID}>{messageLabel(m.counts!.completedAt, m.messageID)}</td>
                <td>{partsSummary(m.counts!)}</td>
                <td class="num">{formatBytes(m.counts!.bytes)}</td>
                <Tokens tokens={m.counts!.tokens} storageOnly={m.storageOnly} />
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <Show when={rows().length > 12}><p class="muted small">…and {plural(rows().length - 12, 'smaller message')}, in batches of {LIMITS.pruneBatchMax}.</p></Show>
    </Show>
  )
}

function Totals(props: { review: Review }) {
  const t = () => reviewTotals(props.review)
  return (
    <p class="prune-totals">
      <strong>{formatBytes(t().bytes)}</strong>: {technicalParts(t().tools, t().reasoning)} in {plural(t().messages, 'message')}.{' '}
      <span class="prune-token-split" title={TOKEN_SPLIT_HINT}>Frees {describeTokenSplit(t())}.</span>
    </p>
  )
}

/**
 * OpenCode's compaction summaries keep text copies of the messages before them (tool outputs cut
 * short), and Loupe never rewrites a summary: say so, counted for a preview, or for a whole session
 * whenever some of its messages lie before a compaction.
 */
export function CompactionNotice(props: { review: Review }) {
  const quoted = () => props.review.messages.reduce((n, m) => n + (m.compactionCopies ?? 0), 0)
  const beforeCompaction = () => props.review.scope === 'session' && props.review.messages.some((m) => m.storageOnly)
  return (
    <Show when={quoted() > 0 || beforeCompaction()}>
      <p class="banner prune-compaction" role="note">
        {quoted() > 0 ? `${plural(quoted(), 'compaction summary', 'compaction summaries')} still quote${quoted() === 1 ? 's' : ''} some of these outputs` : 'Compaction summaries of this session may still quote some of these outputs'}
        {' '}(cut short, as OpenCode keeps them). Loupe does not change compaction summaries, so that text stays in the file.
      </p>
    </Show>
  )
}

/** Forks keep verbatim copies of some of these messages: left as they are unless the person includes them. */
export function ForkNotice(props: { forks: ForkReview[]; include: boolean; onInclude: (on: boolean) => void }) {
  const copies = () => props.forks.reduce((n, f) => n + f.messages.length, 0)
  const names = () => props.forks.slice(0, 3).map((f) => f.title ?? f.sessionID).join(', ') + (props.forks.length > 3 ? ', …' : '')
  return (
    <Show when={props.forks.length > 0}>
      <div class="banner prune-forks" role="note">
        {plural(props.forks.length, 'fork')} ({names()}) {props.forks.length === 1 ? 'keeps' : 'keep'} copies of {plural(copies(), 'message')}; removing them here leaves those copies.
        <label class="prune-forks-include">
          <input type="checkbox" checked={props.include} onChange={(e) => props.onInclude(e.currentTarget.checked)} />
          {' '}Also remove them from the forks' copies ({formatBytes(props.forks.reduce((n, f) => n + f.bytes, 0))})
        </label>
      </div>
    </Show>
  )
}

/** Review what goes, confirm, watch it run (cancel between batches), and read the outcome. */
export function PruneDialog(props: { pruning: Pruning }) {
  const state = () => props.pruning.dialog()
  // Ticked for one review only: a new review starts with the forks left alone.
  const [includedIn, setIncludedIn] = createSignal<Review | null>(null)
  return (
    <Show when={state().phase !== 'closed'}>
      <Modal label="Remove technical parts" class="prune-dialog" onClose={() => props.pruning.close()}>
        <Switch>
          <Match when={state().phase === 'loading' && state()}>
            {(s) => <p class="muted" aria-busy="true">{(s() as { title: string }).title}</p>}
          </Match>
          <Match when={state().phase === 'error' && state()}>
            {(s) => {
              const problem = describeProblem((s() as { error: unknown }).error)
              return <div class="banner banner-warn"><strong>{problem.title}.</strong> {problem.detail} {problem.hint}</div>
            }}
          </Match>
          <Match when={state().phase === 'review' && (state() as { review: Review })}>
            {(s) => (
              <>
                <h2>Remove {s().review.scope === 'session' ? 'every tool call and reasoning block of this session' : 'these parts'}?</h2>
                <Show when={s().review.messages.length > 0} fallback={<p>Nothing here can be removed right now.</p>}>
                  <Totals review={s().review} />
                  <PartRows messages={s().review.messages} />
                  <MessageRows messages={s().review.messages} />
                  <p class="muted small">
                    Text, step records and the cost and token totals stay. OpenCode afterwards sees the conversation without these parts,
                    and Loupe also clears them from OpenCode's event log. The file shrinks once you reclaim space on the Storage page.
                  </p>
                </Show>
                <CompactionNotice review={s().review} />
                <ForkNotice forks={s().review.forks ?? []} include={includedIn() === s().review} onInclude={(on) => setIncludedIn(on ? s().review : null)} />
                <Refusals refused={s().review.refused} />
                <div class="dialog-actions">
                  <button type="button" class="button button-quiet" onClick={() => props.pruning.close()}>Keep everything</button>
                  <button type="button" class="button button-danger" disabled={s().review.messages.length === 0} onClick={() => void props.pruning.confirm({ includeForks: includedIn() === s().review })} autofocus>
                    Remove {plural(reviewTotals(s().review).tools + reviewTotals(s().review).reasoning, 'part')}
                  </button>
                </div>
              </>
            )}
          </Match>
          <Match when={state().phase === 'running' && (state() as { progress: { done: number; total: number; pruned: number } })}>
            {(s) => (
              <>
                <h2>Removing…</h2>
                <progress class="prune-progress" max={s().progress.total} value={s().progress.done} aria-label="Messages done" />
                <p class="muted">{s().progress.done} of {plural(s().progress.total, 'message')} done · {s().progress.pruned} pruned</p>
                <div class="dialog-actions">
                  <button type="button" class="button" onClick={() => props.pruning.cancel()}>Stop after this batch</button>
                </div>
              </>
            )}
          </Match>
          <Match when={state().phase === 'done' && (state() as Extract<ReturnType<Pruning['dialog']>, { phase: 'done' }>)}>
            {(s) => (
              <>
                <h2>{s().cancelled ? 'Stopped' : 'Done'}</h2>
                <p>
                  Removed {plural(s().progress.removedParts, 'part')} from {plural(s().progress.pruned, 'message')}.
                  <Show when={s().cancelled}> The rest is untouched; start again to continue.</Show>
                </p>
                <Refusals refused={[...s().review.refused, ...s().progress.refused]} />
                <p class="muted small">
                  The pruned bytes are gone from the conversation and the event log. To shrink the file itself, use <A href="/storage">Reclaim space</A>.
                </p>
                <div class="dialog-actions">
                  <button type="button" class="button" onClick={() => props.pruning.close()} autofocus>Close</button>
                </div>
              </>
            )}
          </Match>
        </Switch>
      </Modal>
    </Show>
  )
}

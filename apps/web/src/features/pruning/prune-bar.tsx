import { Match, Show, Switch } from 'solid-js'
import { formatBytes, plural, technicalParts } from '../../lib/format'
import { LiveLockNotice } from './live-lock'
import { describeTokenSplit, TOKEN_SPLIT_HINT } from './token-split'
import type { Pruning } from './pruning-state'

/**
 * Above the transcript: what removing this session's tool calls and reasoning would save, before
 * anything happens, and the actions for the current selection or the whole session.
 */
export function PruneBar(props: { pruning: Pruning }) {
  const plan = () => props.pruning.plan.data()
  const selectedBytes = () => props.pruning.selected().reduce((sum, p) => sum + p.bytes, 0)
  const blocked = () => (props.pruning.lock() ? null : plan()?.block ?? null)
  const locked = () => props.pruning.lock() !== null || blocked() !== null
  return (
    <section class="prune-bar" aria-label="Clean up technical parts">
      <Show when={props.pruning.lock()}>{(lock) => <LiveLockNotice lock={lock()} />}</Show>
      <div class="prune-bar-summary">
        <Switch fallback={<span class="muted">Measuring what this session could shed…</span>}>
          <Match when={props.pruning.plan.error()}>
            <span class="muted">Could not measure this session's technical parts.</span>
          </Match>
          <Match when={plan()}>
            {(p) => (
              <Show
                when={p().totals.candidates > 0}
                fallback={<span class="muted">No tool calls or reasoning left to remove in finished messages.</span>}
              >
                <span class="prune-bar-figure" title={`UTF-8 bytes of the parts as stored. ${TOKEN_SPLIT_HINT}`}>
                  <strong>{formatBytes(p().totals.bytes)}</strong> · frees {describeTokenSplit(p().totals)}
                </span>
                <span class="muted">
                  in {technicalParts(p().totals.tools, p().totals.reasoning)} across {plural(p().totals.candidates, 'finished message')}
                </span>
              </Show>
            )}
          </Match>
        </Switch>
        <Show when={blocked()}>
          {(b) => <span class="chip chip-warn" title={b().reason}>{b().detail}</span>}
        </Show>
      </div>
      <div class="prune-bar-actions">
        <Show
          when={props.pruning.selected().length > 0}
          fallback={
            <button
              type="button"
              class="button"
              disabled={!plan() || plan()?.totals.candidates === 0 || locked()}
              onClick={() => void props.pruning.reviewSession()}
            >
              Clean up whole session…
            </button>
          }
        >
          <span class="prune-bar-selection">
            {plural(props.pruning.selected().length, 'part')} selected · {formatBytes(selectedBytes())}
          </span>
          <button type="button" class="button button-quiet" onClick={() => props.pruning.clearSelection()}>
            Clear
          </button>
          <button type="button" class="button button-danger" disabled={locked()} onClick={() => void props.pruning.reviewSelected()}>
            Review removal…
          </button>
        </Show>
      </div>
    </section>
  )
}

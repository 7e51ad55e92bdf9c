import { Match, Show, Switch } from 'solid-js'
import { useApi } from '../../lib/api-context'
import { formatBytes } from '../../lib/format'
import type { MessageModel, ViewItem } from '../transcript/message-model'
import { Transcript, type TranscriptProps } from '../transcript/transcript'
import { PruneBar } from './prune-bar'
import { PruneDialog } from './prune-dialog'
import type { PruneTarget } from './pruning.data'
import { createPruning, isPrunable, type Pruning } from './pruning-state'

/** A checkbox on each technical part; shift-click selects the range since the last one. */
function PartCheckbox(props: { pruning: Pruning; message: MessageModel; item: Extract<ViewItem, { kind: 'tool' | 'reasoning' }> }) {
  const label = () => `Select ${props.item.kind === 'tool' ? `tool call ${props.item.tool.name}` : 'reasoning'} (${formatBytes(props.item.bytes)}) for removal`
  return (
    <label class="prune-check" title="Select for removal (shift-click selects a range)">
      <input
        type="checkbox"
        aria-label={label()}
        checked={props.pruning.isSelected(props.message.id, props.item.ref)}
        // The browser toggles this box itself; the selection then checks or clears the whole range.
        onClick={(event) => props.pruning.toggle(props.message, props.item, event.shiftKey)}
      />
    </label>
  )
}

function CleanUpButton(props: { pruning: Pruning; message: MessageModel }) {
  return (
    <button
      type="button"
      class="link-button prune-message"
      title="Remove this step's tool calls and reasoning"
      onClick={() => void props.pruning.reviewMessage(props.message.id)}
    >
      Clean up step
    </button>
  )
}

function messageHasTechnical(message: MessageModel) {
  return message.items.some((item) => isPrunable(message, item))
}

/**
 * The transcript with pruning around it: what the session would save, selection checkboxes on
 * technical parts, a per-message clean-up button, the review dialog, and live re-reads after
 * every commit in any tab.
 */
export function PrunableTranscript(props: Omit<TranscriptProps, 'session'> & { session: PruneTarget; writable: boolean; onPruned?: () => void }) {
  const pruning = createPruning(useApi(), () => props.session, () => props.onPruned?.())
  const enabled = () => props.writable && (pruning.plan.data()?.block ?? null) === null && pruning.lock() === null
  return (
    <div class="prunable-transcript">
      <Show when={props.writable}>
        <PruneBar pruning={pruning} />
      </Show>
      <Transcript
        {...props}
        onWindow={(win, models) => pruning.attach(win, models)}
        controls={(message) => (
          <Show when={enabled() && messageHasTechnical(message) && !message.items.some((i) => i.kind === 'usage')}>
            <CleanUpButton pruning={pruning} message={message} />
          </Show>
        )}
        itemControls={(message, item) => (
          <Switch>
            <Match when={enabled() && isPrunable(message, item) && item}>
              {(prunable) => <PartCheckbox pruning={pruning} message={message} item={prunable() as Extract<ViewItem, { kind: 'tool' | 'reasoning' }>} />}
            </Match>
            {/* Every step ends in its usage line (continued steps have no header): the step's own clean-up sits there. */}
            <Match when={enabled() && item.kind === 'usage' && messageHasTechnical(message)}>
              <CleanUpButton pruning={pruning} message={message} />
            </Match>
          </Switch>
        )}
      />
      <PruneDialog pruning={pruning} />
    </div>
  )
}

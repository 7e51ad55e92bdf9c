import { For, Show } from 'solid-js'
import { describeFinishReason, formatCost, formatCount } from '../../lib/format'
import type { Usage } from './message-model'

/** The end of a model step: tokens (breakdown on hover), cost and why it stopped, kept quiet. */
export function UsageLine(props: { usage: Usage }) {
  const t = () => props.usage.tokens
  const total = () => (t() ? (t()?.input ?? 0) + (t()?.output ?? 0) + (t()?.reasoning ?? 0) + (t()?.cacheRead ?? 0) + (t()?.cacheWrite ?? 0) : 0)
  return (
    <div class="usage-line">
      <Show when={t()}>
        {(tokens) => (
          <span title={`input ${tokens().input.toLocaleString()} · output ${tokens().output.toLocaleString()} · reasoning ${tokens().reasoning.toLocaleString()} · cache read ${tokens().cacheRead.toLocaleString()} · cache write ${tokens().cacheWrite.toLocaleString()}`}>
            {formatCount(total())} tokens
          </span>
        )}
      </Show>
      <Show when={props.usage.cost !== undefined && (props.usage.cost ?? 0) > 0}>
        <span>{formatCost(props.usage.cost ?? 0)}</span>
      </Show>
      <Show when={props.usage.reason}>
        {(reason) => <span title={`finish reason: ${reason()}`}>{describeFinishReason(reason())}</span>}
      </Show>
    </div>
  )
}

/** Files a step changed (1.x `patch` part); full paths on hover. */
export function PatchLine(props: { files: string[] }) {
  return (
    <div class="patch-line" title={props.files.join('\n')}>
      Changed {props.files.length === 1 ? '1 file' : `${props.files.length} files`}:{' '}
      <For each={props.files.slice(0, 4)}>{(file) => <code>{file.split('/').at(-1)}</code>}</For>
      <Show when={props.files.length > 4}> and {props.files.length - 4} more</Show>
    </div>
  )
}

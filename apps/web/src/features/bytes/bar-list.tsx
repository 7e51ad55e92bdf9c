import { For, Show } from 'solid-js'
import { formatBytes, formatCount } from '../../lib/format'
import { formatShare, type Slice } from './bytes-model'

export interface BarListProps {
  title: string
  slices: Slice[]
  /** Bars are scaled to the session total, so lists compare with each other. */
  total: number
  empty: string
  countLabel?: string
}

/** Ranked rows with a bar each: label, bytes, share of the session, count and estimated tokens. */
export function BarList(props: BarListProps) {
  const max = () => props.slices.reduce((m, s) => Math.max(m, s.bytes), 0) || 1
  return (
    <section class="bar-list" aria-label={props.title}>
      <h3>{props.title}</h3>
      <Show when={props.slices.length > 0} fallback={<p class="muted">{props.empty}</p>}>
        <ol>
          <For each={props.slices}>
            {(slice) => (
              <li class="bar-row" data-slice={slice.key}>
                <span class="bar-fill" aria-hidden="true" style={{ width: `${(slice.bytes / max()) * 100}%`, '--c': `var(${slice.color})` }} />
                <span class="bar-label" title={slice.label}>{slice.label}</span>
                <span class="bar-bytes num">{formatBytes(slice.bytes)}</span>
                <span class="bar-share num">{formatShare(slice.bytes, props.total)}</span>
                <span class="bar-count num" title={`${slice.count.toLocaleString()} ${props.countLabel ?? 'items'}`}>×{slice.count.toLocaleString()}</span>
                <span class="bar-tokens num" title="Estimated model tokens">{slice.tokens !== null ? `${formatCount(slice.tokens)} tok` : ''}</span>
              </li>
            )}
          </For>
        </ol>
      </Show>
    </section>
  )
}

import { createMemo, For } from 'solid-js'
import { formatBytes } from '../../lib/format'
import { formatShare, type Slice } from './bytes-model'

export interface BytesChartProps {
  slices: Slice[]
  total: number
  label: string
}

/** One stacked bar of the whole session, drawn as SVG, with a legend that carries the numbers. */
export function BytesChart(props: BytesChartProps) {
  const layout = createMemo(() => {
    const sum = props.slices.reduce((n, s) => n + s.bytes, 0) || 1
    let x = 0
    return props.slices.map((slice) => {
      const width = Math.max((slice.bytes / sum) * 1000, 2)
      const rect = { slice, x, width }
      x += width
      return rect
    })
  })
  const scale = () => 1000 / Math.max(1000, layout().reduce((n, r) => n + r.width, 0))
  return (
    <figure class="bytes-chart">
      <svg viewBox="0 0 1000 32" preserveAspectRatio="none" role="img" aria-label={props.label} class="stacked-bar">
        <For each={layout()}>
          {(rect) => (
            <rect x={rect.x * scale()} y="0" width={Math.max(rect.width * scale() - 1.5, 1)} height="32" style={{ fill: `var(${rect.slice.color})` }} data-slice={rect.slice.key}>
              <title>{`${rect.slice.label}: ${formatBytes(rect.slice.bytes)} (${formatShare(rect.slice.bytes, props.total)})`}</title>
            </rect>
          )}
        </For>
      </svg>
      <figcaption>
        <ul class="legend">
          <For each={props.slices}>
            {(slice) => (
              <li>
                <span class="swatch" style={{ background: `var(${slice.color})` }} aria-hidden="true" />
                <span class="legend-label">{slice.label}</span>
                <span class="legend-value num">{formatBytes(slice.bytes)}</span>
                <span class="legend-share num">{formatShare(slice.bytes, props.total)}</span>
              </li>
            )}
          </For>
        </ul>
      </figcaption>
    </figure>
  )
}

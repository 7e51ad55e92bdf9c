import { createEffect, For, onCleanup, onMount } from 'solid-js'
import { Chart, themeColor as cssVar } from '../../lib/chart'
import { formatBytes } from '../../lib/format'

export interface ChartRow {
  label: string
  bytes: number
  /** A CSS custom property of the theme, e.g. `--c-events`. */
  color: string
}

export interface DoctorChartProps {
  title: string
  kind: 'doughnut' | 'bar'
  rows: ChartRow[]
  /** The table's caption and the canvas's label. */
  summary: string
}

/**
 * A chart for the eye, with the same figures in a table beside it (the canvas is hidden from
 * assistive technology; the table is what a screen reader reads). Colours come from the theme's
 * CSS variables, so the chart follows the dark and the light theme.
 */
export function DoctorChart(props: DoctorChartProps) {
  let canvas: HTMLCanvasElement | undefined
  let chart: Chart | undefined
  const total = () => props.rows.reduce((n, r) => n + r.bytes, 0) || 1
  onMount(() => {
    // No 2D context (a test DOM, a locked-down browser): the table alone carries the figures.
    if (!canvas?.getContext('2d')) return
    const text = cssVar('--text-muted')
    const grid = cssVar('--border')
    chart = new Chart(canvas, {
      type: props.kind,
      data: { labels: [], datasets: [{ data: [], backgroundColor: [], borderColor: cssVar('--bg-raised'), borderWidth: props.kind === 'doughnut' ? 2 : 0 }] },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        indexAxis: 'y',
        plugins: { legend: { display: false }, tooltip: { callbacks: { label: (item) => ` ${formatBytes(Number(item.raw))}` } } },
        scales: props.kind === 'bar'
          ? { x: { ticks: { color: text, callback: (v) => formatBytes(Number(v)) }, grid: { color: grid } }, y: { ticks: { color: text }, grid: { display: false } } }
          : {},
      },
    })
  })
  createEffect(() => {
    const rows = props.rows
    if (!chart) return
    chart.data.labels = rows.map((r) => r.label)
    const dataset = chart.data.datasets[0]
    if (dataset) {
      dataset.data = rows.map((r) => r.bytes)
      dataset.backgroundColor = rows.map((r) => cssVar(r.color))
    }
    chart.update()
  })
  onCleanup(() => chart?.destroy())
  return (
    <figure class="doctor-chart" classList={{ [`doctor-chart-${props.kind}`]: true }}>
      <figcaption>{props.title}</figcaption>
      <div class="doctor-chart-body">
        <div class="doctor-chart-canvas" aria-hidden="true" style={{ height: `${props.kind === 'bar' ? 40 + props.rows.length * 24 : 160}px` }}>
          <canvas ref={canvas} />
        </div>
        <table class="doctor-table">
          <caption class="visually-hidden">{props.summary}</caption>
          <tbody>
            <For each={props.rows}>
              {(row) => (
                <tr>
                  <th scope="row"><span class="swatch" style={{ background: `var(${row.color})` }} aria-hidden="true" />{row.label}</th>
                  <td class="num">{formatBytes(row.bytes)}</td>
                  <td class="num muted">{Math.round((row.bytes / total()) * 100)}%</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
    </figure>
  )
}

import { createEffect, For, onCleanup, onMount } from 'solid-js'
import { Chart, themeColor } from '../../lib/chart'

export interface ChartSeries {
  label: string
  /** A CSS custom property of the theme, e.g. `--c-tool`. */
  color: string
  values: number[]
}

export interface UsageChartProps {
  title: string
  /** The table's caption and what the figure is about. */
  summary: string
  labels: string[]
  series: ChartSeries[]
  format: (value: number) => string
}

/**
 * Stacked bars over time, one stack per bucket. The canvas is hidden from assistive technology:
 * the same figures are in a table under it (folded away for the eye, read in full by a screen reader).
 */
export function UsageChart(props: UsageChartProps) {
  let canvas: HTMLCanvasElement | undefined
  let chart: Chart<'bar'> | undefined
  const totals = () => props.labels.map((_, i) => props.series.reduce((n, s) => n + (s.values[i] ?? 0), 0))
  onMount(() => {
    // No 2D context (a test DOM, a locked-down browser): the table alone carries the figures.
    if (!canvas?.getContext('2d')) return
    const text = themeColor('--text-muted')
    const grid = themeColor('--border')
    chart = new Chart(canvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: { position: 'bottom', labels: { color: text, boxWidth: 12, boxHeight: 12 } },
          tooltip: { callbacks: { label: (item) => ` ${item.dataset.label ?? ''}: ${props.format(Number(item.raw))}` } },
        },
        scales: {
          x: { stacked: true, ticks: { color: text, maxRotation: 0, autoSkip: true, autoSkipPadding: 12 }, grid: { display: false } },
          y: { stacked: true, beginAtZero: true, ticks: { color: text, callback: (v) => props.format(Number(v)) }, grid: { color: grid } },
        },
      },
    })
  })
  createEffect(() => {
    const labels = props.labels
    const series = props.series
    if (!chart) return
    chart.data.labels = labels
    chart.data.datasets = series.map((s) => ({ label: s.label, data: s.values, backgroundColor: themeColor(s.color), borderWidth: 0, maxBarThickness: 48 }))
    chart.update()
  })
  onCleanup(() => chart?.destroy())
  return (
    <figure class="usage-chart">
      <figcaption>{props.title}</figcaption>
      <div class="usage-chart-canvas" aria-hidden="true">
        <canvas ref={canvas} />
      </div>
      <details class="usage-table">
        <summary>Show the figures as a table</summary>
        <div class="usage-table-scroll">
          <table>
            <caption class="visually-hidden">{props.summary}</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <For each={props.series}>{(s) => <th scope="col" class="num">{s.label}</th>}</For>
                <th scope="col" class="num">Total</th>
              </tr>
            </thead>
            <tbody>
              <For each={props.labels}>
                {(label, i) => (
                  <tr>
                    <th scope="row">{label}</th>
                    <For each={props.series}>{(s) => <td class="num">{props.format(s.values[i()] ?? 0)}</td>}</For>
                    <td class="num">{props.format(totals()[i()] ?? 0)}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}

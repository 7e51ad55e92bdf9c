import { ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, Legend, LinearScale, Tooltip } from 'chart.js'

// Chart.js keeps one registry of the pieces it may draw; only these are bundled, once for every chart.
Chart.register(DoughnutController, ArcElement, BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend)

export { Chart }

/** A theme colour by its CSS custom property, so charts follow the dark and the light theme. */
export const themeColor = (name: string): string => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888'

/** Series colours in order, from the theme. */
export const SERIES_COLORS = ['--c-tool', '--c-text', '--c-file', '--c-reasoning', '--c-events', '--c-info', '--c-step', '--c-other'] as const

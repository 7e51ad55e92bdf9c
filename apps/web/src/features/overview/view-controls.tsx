import { USAGE_GROUPS, USAGE_INTERVALS, USAGE_RANGES } from '@loupe/domain'
import { For } from 'solid-js'
import { rangeParam, type OverviewView } from './overview-params'

const RANGE_LABELS: Record<string, string> = { '30': '30 days', '90': '90 days', '365': '365 days', all: 'All time' }
const INTERVAL_LABELS: Record<string, string> = { day: 'Per day', week: 'Per week' }
const GROUP_LABELS: Record<string, string> = { model: 'By model', project: 'By project' }

function Segmented(props: { legend: string; name: string; options: readonly string[]; labels: Record<string, string>; value: string; onChange: (value: string) => void }) {
  return (
    <fieldset class="segmented">
      <legend class="visually-hidden">{props.legend}</legend>
      <For each={props.options}>
        {(option) => (
          <label classList={{ checked: option === props.value }}>
            <input type="radio" name={props.name} value={option} checked={option === props.value} onChange={() => props.onChange(option)} />
            <span>{props.labels[option] ?? option}</span>
          </label>
        )}
      </For>
    </fieldset>
  )
}

/** The range, the bucket size and the stacking; each is a radio group, so arrow keys move within it. */
export function ViewControls(props: { view: OverviewView; onChange: (change: Partial<OverviewView>) => void }) {
  return (
    <div class="overview-controls">
      <Segmented
        legend="Range" name="range" options={USAGE_RANGES.map(rangeParam)} labels={RANGE_LABELS} value={rangeParam(props.view.days)}
        onChange={(v) => props.onChange({ days: v === 'all' ? null : (Number(v) as 30 | 90 | 365) })}
      />
      <Segmented
        legend="Bucket" name="interval" options={USAGE_INTERVALS} labels={INTERVAL_LABELS} value={props.view.interval}
        onChange={(v) => props.onChange({ interval: v as OverviewView['interval'] })}
      />
      <Segmented
        legend="Stack" name="by" options={USAGE_GROUPS} labels={GROUP_LABELS} value={props.view.groupBy}
        onChange={(v) => props.onChange({ groupBy: v as OverviewView['groupBy'] })}
      />
    </div>
  )
}

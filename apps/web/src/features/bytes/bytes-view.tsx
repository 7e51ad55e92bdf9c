import { createMemo, Show } from 'solid-js'
import { formatBytes, formatCost, formatCount } from '../../lib/format'
import { BarList } from './bar-list'
import { BytesChart } from './bytes-chart'
import { buildBytesModel, formatShare } from './bytes-model'
import type { Breakdown } from './bytes.data'

/** "Where the bytes go" for one session: the overview bar, then by part type, by tool and the event log. */
export function BytesView(props: { breakdown: Breakdown }) {
  const model = createMemo(() => buildBytesModel(props.breakdown))
  const usage = () => props.breakdown.usage
  const tokens = () => usage().tokens.input + usage().tokens.output + usage().tokens.reasoning + usage().tokens.cacheRead + usage().tokens.cacheWrite
  return (
    <div class="bytes-view">
      <div class="stat-cards">
        <div class="stat-card">
          <span class="stat-label">Stored</span>
          <span class="stat-value">{formatBytes(model().total)}</span>
          <span class="stat-note">{formatBytes(model().total - model().eventBytes)} content</span>
        </div>
        <div class="stat-card">
          <span class="stat-label">Event log</span>
          <span class="stat-value">{formatBytes(model().eventBytes)}</span>
          <span class="stat-note">{formatShare(model().eventBytes, model().total)} of the session</span>
        </div>
        <div class="stat-card">
          <span class="stat-label">Tokens used</span>
          <span class="stat-value">{formatCount(tokens())}</span>
          <span class="stat-note">{formatCount(usage().tokens.input)} in · {formatCount(usage().tokens.output)} out · {formatCount(usage().tokens.cacheRead)} cached</span>
        </div>
        <div class="stat-card">
          <span class="stat-label">Cost</span>
          <span class="stat-value">{formatCost(usage().cost)}</span>
        </div>
      </div>
      <Show when={model().total > 0} fallback={<p class="muted">This session stores no bytes yet.</p>}>
        <BytesChart slices={model().overview} total={model().total} label={`Where ${formatBytes(model().total)} go`} />
        <div class="bar-lists">
          <BarList title="By part type" slices={model().byKind} total={model().total} empty="No parts stored." countLabel="parts" />
          <BarList title="By tool" slices={model().byTool} total={model().total} empty="No tool calls in this session." countLabel="calls" />
          <BarList title="Event log by event type" slices={model().events} total={model().total} empty="This database keeps no event log for the session." countLabel="events" />
        </div>
        <p class="muted bytes-footnote">
          Token columns estimate what each part would cost in a model's context (o200k tokenizer; images left out)
          <Show when={props.breakdown.tokensSampled}>; this session is large, so part of them are extrapolated from a sample</Show>.
        </p>
      </Show>
    </div>
  )
}

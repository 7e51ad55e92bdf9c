import { A } from '@solidjs/router'
import { createMemo, For, Match, Show, Switch } from 'solid-js'
import { EmptyState } from '../../components/empty-state'
import { ErrorPanel } from '../../components/error-panel'
import { ListSkeleton } from '../../components/skeleton'
import { SERIES_COLORS } from '../../lib/chart'
import { formatCost, formatCount, plural } from '../../lib/format'
import { sessionHref } from '../../lib/links'
import type { Query } from '../../lib/query'
import type { UsageSummary } from './overview.data'
import type { OverviewView } from './overview-params'
import { UsageChart } from './usage-chart'

const dateLabel = (date: string, week: boolean) => {
  const text = new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })
  return week ? `Week of ${text}` : text
}
const RANGE_WORDS = (days: number | null) => (days === null ? 'all time' : `the last ${days} days`)

/** Tokens and cost over time, stacked, with the range's totals and its biggest sessions. */
export function UsageSection(props: { usage: Query<UsageSummary>; view: OverviewView; onAllTime: () => void }) {
  return (
    <section class="overview-section" aria-label="Usage over time">
      <Switch>
        <Match when={props.usage.error()}>
          <ErrorPanel error={props.usage.error()} onRetry={props.usage.refetch} />
        </Match>
        <Match when={props.usage.data()}>{(u) => <UsageView usage={u()} view={props.view} onAllTime={props.onAllTime} />}</Match>
        <Match when={true}>
          <div aria-busy="true" aria-label="Loading usage"><ListSkeleton rows={6} /></div>
        </Match>
      </Switch>
    </section>
  )
}

function UsageView(props: { usage: UsageSummary; view: OverviewView; onAllTime: () => void }) {
  const u = () => props.usage
  const labels = createMemo(() => u().buckets.map((b) => dateLabel(b.date, u().interval === 'week')))
  const colored = (pick: (s: UsageSummary['series'][number]) => number[]) =>
    u().series.map((s, i) => ({ label: s.label, color: SERIES_COLORS[i % SERIES_COLORS.length] ?? '--c-other', values: pick(s) }))
  const t = () => u().totals
  const by = () => (u().groupBy === 'model' ? 'model' : 'project')
  return (
    <Show
      when={u().totals.messages > 0}
      fallback={
        <EmptyState
          title={u().days === null ? 'No model usage recorded yet' : `No model usage in ${RANGE_WORDS(u().days)}`}
          compact
          action={<Show when={u().days !== null}><button type="button" class="button" onClick={() => props.onAllTime()}>Show all time</button></Show>}
        >
          <p>Tokens and cost come from the assistant messages OpenCode stores; once a model has answered, they show here by day.</p>
        </EmptyState>
      }
    >
      <div class="stat-cards">
        <div class="stat-card">
          <span class="stat-label">Tokens</span>
          <span class="stat-value">{formatCount(t().totalTokens)}</span>
          <span class="stat-note">{formatCount(t().tokens.input)} in · {formatCount(t().tokens.output)} out · {formatCount(t().tokens.reasoning)} reasoning · {formatCount(t().tokens.cacheRead)} cache read · {formatCount(t().tokens.cacheWrite)} cache write</span>
        </div>
        <div class="stat-card">
          <span class="stat-label">Cost</span>
          <span class="stat-value">{formatCost(t().cost)}</span>
          <span class="stat-note">as OpenCode recorded it</span>
        </div>
        <div class="stat-card">
          <span class="stat-label">Model calls</span>
          <span class="stat-value">{t().messages.toLocaleString()}</span>
          <span class="stat-note">in {plural(t().sessions, 'session')}</span>
        </div>
      </div>
      <div class="usage-charts">
        <UsageChart title={`Tokens per ${u().interval} by ${by()}`} summary={`Tokens per ${u().interval} by ${by()}, ${RANGE_WORDS(u().days)}`} labels={labels()} series={colored((s) => s.tokens)} format={formatCount} />
        <UsageChart title={`Cost per ${u().interval} by ${by()}`} summary={`Cost in dollars per ${u().interval} by ${by()}, ${RANGE_WORDS(u().days)}`} labels={labels()} series={colored((s) => s.cost)} format={formatCost} />
      </div>
      <AgreementNote agreement={u().agreement} />
      <TopSessions sessions={u().topSessions} days={u().days} />
    </Show>
  )
}

function TopSessions(props: { sessions: UsageSummary['topSessions']; days: number | null }) {
  const max = () => props.sessions[0]?.tokens || 1
  return (
    <>
      <h3>Biggest sessions <span class="muted small">by tokens, {RANGE_WORDS(props.days)}</span></h3>
      <table class="doctor-sessions overview-top">
        <thead>
          <tr><th scope="col">Session</th><th scope="col" class="col-project">Project</th><th scope="col" class="num">Tokens</th><th scope="col" class="num">Cost</th></tr>
        </thead>
        <tbody>
          <For each={props.sessions}>
            {(s) => (
              <tr>
                <td>
                  <span class="doctor-bar" aria-hidden="true" style={{ width: `${(s.tokens / max()) * 100}%` }} />
                  <A href={sessionHref(s, { tab: 'bytes' })}>{s.title || s.id}</A>
                </td>
                <td class="col-project muted">{s.project}</td>
                <td class="num">{formatCount(s.tokens)}</td>
                <td class="num">{formatCost(s.cost)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </>
  )
}

/** The difference itself: two large totals rounded alike ("1.8M against 1.8M") say nothing. */
function gap(sessionTokens: number, messageTokens: number): string {
  const diff = sessionTokens - messageTokens
  return `their totals hold ${formatCount(Math.abs(diff))} tokens ${diff < 0 ? 'fewer' : 'more'} than their messages`
}

/** Where a session's own totals (its Bytes tab) and its messages disagree, say so and name it. */
function AgreementNote(props: { agreement: UsageSummary['agreement'] }) {
  return (
    <Show when={props.agreement.differing > 0}>
      <details class="banner banner-info overview-agreement">
        <summary>
          {plural(props.agreement.differing, 'session')} of {props.agreement.sessions.toLocaleString()} record other totals than their messages add up to
          ({gap(props.agreement.sessionTokens, props.agreement.messageTokens)} over all time). The charts count messages.
        </summary>
        <p class="small">
          OpenCode 1.18's experimental engine leaves a session's totals at 0, and a 2.x import drops subtask messages but keeps their tokens
          in the session's totals. Each session's Bytes tab shows its own totals.
        </p>
        <ul class="small">
          <For each={props.agreement.examples}>
            {(e) => (
              <li>
                <A href={sessionHref(e, { tab: 'bytes' })}>{e.title || e.id}</A>: totals {formatCount(e.sessionTokens)} tokens, messages {formatCount(e.messageTokens)}
              </li>
            )}
          </For>
        </ul>
      </details>
    </Show>
  )
}

import { Match, Switch } from 'solid-js'
import { ErrorPanel } from '../../components/error-panel'
import { ListSkeleton } from '../../components/skeleton'
import { useApi } from '../../lib/api-context'
import type { TranscriptRef } from '../transcript/transcript.data'
import { createBreakdown } from './bytes.data'
import { BytesView } from './bytes-view'

/** The Bytes tab: loads the breakdown and shows the chart. */
export function BytesTab(props: { session: TranscriptRef }) {
  const breakdown = createBreakdown(useApi(), () => props.session)
  return (
    <div class="tab-panel bytes-panel">
      <Switch>
        <Match when={breakdown.error()}>
          <ErrorPanel error={breakdown.error()} onRetry={breakdown.refetch} />
        </Match>
        <Match when={breakdown.data()}>{(data) => <BytesView breakdown={data()} />}</Match>
        <Match when={breakdown.loading()}>
          <ListSkeleton rows={5} />
        </Match>
      </Switch>
    </div>
  )
}

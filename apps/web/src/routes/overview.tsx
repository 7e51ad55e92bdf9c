import { BytesSummary } from '../features/overview/bytes-summary'
import { CleanupEstimate } from '../features/overview/cleanup-estimate'
import { createUsage } from '../features/overview/overview.data'
import { overviewParams, parseOverviewView, type OverviewView } from '../features/overview/overview-params'
import { UsageSection } from '../features/overview/usage-section'
import { ViewControls } from '../features/overview/view-controls'
import { useStorageInfo } from '../features/storage/storage.data'
import { useApi } from '../lib/api-context'
import { useSingleSearchParams } from '../lib/single-params'
import { useTitle } from '../lib/title'
import { Show } from 'solid-js'

/** `/overview`: usage over time, where the bytes are, and what a clean-up would save. The view lives in the URL. */
export function OverviewRoute() {
  const [params, setParams] = useSingleSearchParams<{ range?: string; interval?: string; by?: string }>()
  const view = () => parseOverviewView(params)
  const setView = (change: Partial<OverviewView>) => setParams(overviewParams(change), { replace: true })
  const usage = createUsage(useApi(), view)
  const storage = useStorageInfo()
  useTitle(() => 'Overview')
  return (
    <div class="page overview-page">
      <div class="page-head">
        <h1>Overview</h1>
        <button type="button" class="button button-quiet" onClick={() => usage.refetch()} disabled={usage.loading()}>Refresh</button>
      </div>
      <ViewControls view={view()} onChange={setView} />
      <UsageSection usage={usage} view={view()} onAllTime={() => setView({ days: null })} />
      <Show when={storage.data()?.supported.read}>
        <div class="overview-columns">
          <BytesSummary />
          <CleanupEstimate fileBytes={(storage.data()?.sizeBytes ?? 0) + (storage.data()?.walBytes ?? 0)} />
        </div>
      </Show>
    </div>
  )
}

import { onCleanup, onMount, type Accessor } from 'solid-js'
import type { Api } from '../../lib/trpc'
import { followPruned, type PruneTarget } from './pruning.data'

/**
 * Call `refresh` once commits to this session settle, wherever they were made: from `events.pruned`
 * (any tab) and from the returned trigger (this tab's own runs, in case the event stream is down).
 * Coalesced, because a batch commits message after message. Lives as long as the calling component.
 */
export function createPrunedRefresh(api: Api, target: Accessor<PruneTarget | undefined>, refresh: () => void, delayMs = 250): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const schedule = () => {
    clearTimeout(timer)
    timer = setTimeout(refresh, delayMs)
  }
  onMount(() => {
    const stop = followPruned(api, (event) => {
      const current = target()
      if (current && event.sessionID === current.sessionID && event.storage === current.storage) schedule()
    })
    onCleanup(stop)
  })
  onCleanup(() => clearTimeout(timer))
  return schedule
}

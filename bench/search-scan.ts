import path from 'node:path'
import { search } from '../apps/api/src/features/history/history.service.js'
import type { AppDeps } from '../apps/api/src/deps.js'
import { createSearchIndex } from '../apps/api/src/index/search-index.js'
import { systemClock } from '../apps/api/src/lib/clock.js'
import { createEventBus } from '../apps/api/src/lib/event-bus.js'
import { openOpenCode } from '../apps/api/src/store/open-opencode.js'

/**
 * The literal-scan fallback, in process (no HTTP, in its favour): every page of one query until
 * the scan ends, as the UI would walk it while the index is being built. Returns the total time
 * per run and the number of pages.
 */
export async function scanSearch(db: string, work: string, query: string, runs: number): Promise<{ times: number[]; pages: number }> {
  const opencode = openOpenCode(db)
  const events = createEventBus()
  // A manual index that is never built: history.search answers with the literal scan.
  const searchIndex = createSearchIndex({ opencode, dataDir: path.join(work, 'scan-only'), events, mode: 'manual' })
  const deps = { opencode, events, searchIndex, clock: systemClock } as unknown as AppDeps
  const times: number[] = []
  let pages = 0
  for (let r = 0; r < runs; r++) {
    pages = 0
    const t0 = performance.now()
    let cursor: string | undefined
    do {
      const answer = search(deps, { query, limit: 32, ...(cursor ? { cursor } : {}) })
      if (answer.mode !== 'scan') throw new Error('expected the literal scan')
      cursor = answer.cursor ?? undefined
      pages++
      await new Promise((resolve) => setImmediate(resolve))
    } while (cursor)
    times.push(performance.now() - t0)
  }
  await searchIndex.close()
  opencode.db.close()
  return { times, pages }
}

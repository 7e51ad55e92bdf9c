import { search, type SearchAnswer } from '../apps/api/src/features/history/history.service.js'
import type { SearchInput } from '../apps/api/src/features/history/history.schema.js'
import type { AppDeps } from '../apps/api/src/deps.js'
import { createSearchIndex } from '../apps/api/src/index/search-index.js'
import { systemClock } from '../apps/api/src/lib/clock.js'
import { createEventBus } from '../apps/api/src/lib/event-bus.js'
import { openOpenCode } from '../apps/api/src/store/open-opencode.js'

export interface InProcessSearch {
  search(input: SearchInput): SearchAnswer
  close(): Promise<void>
}

/**
 * history.search called in this process, without HTTP, on the index in `dataDir` (built by the
 * server) or, for an empty `dataDir`, never built: then every answer is the literal scan.
 */
export function openInProcess(db: string, dataDir: string): InProcessSearch {
  const opencode = openOpenCode(db)
  const events = createEventBus()
  const searchIndex = createSearchIndex({ opencode, dataDir, events, mode: 'manual' })
  const deps = { opencode, events, searchIndex, clock: systemClock } as unknown as AppDeps
  return {
    search: (input) => search(deps, input),
    async close() {
      await searchIndex.close()
      opencode.db.close()
    },
  }
}

/**
 * The literal-scan fallback for one query: every page until the scan ends, as the UI walks it
 * while the index is being built (in process, so without HTTP, in its favour). Times per run.
 */
export async function scanToEnd(scanner: InProcessSearch, query: string, runs: number): Promise<{ times: number[]; pages: number }> {
  const times: number[] = []
  let pages = 0
  for (let r = 0; r < runs; r++) {
    pages = 0
    const t0 = performance.now()
    let cursor: string | undefined
    do {
      const answer = scanner.search({ query, limit: 32, ...(cursor ? { cursor } : {}) })
      if (answer.mode !== 'scan') throw new Error('expected the literal scan')
      cursor = answer.cursor ?? undefined
      pages++
      await new Promise((resolve) => setImmediate(resolve))
    } while (cursor)
    times.push(performance.now() - t0)
  }
  return { times, pages }
}

import { sessionHref } from '../../lib/links'
import type { SearchHit, SearchKind } from './search.data'

export const KIND_LABELS: Record<SearchKind, string> = {
  text: 'Answer',
  reasoning: 'Reasoning',
  tool: 'Tool',
  user: 'User',
  title: 'Title',
}

/**
 * Where a hit opens: its session, scrolled to the message, with the part (1.x id, 2.x index)
 * marked and, given the query, its matches inside the part too (a title hit's in the title).
 */
export function hitHref(hit: SearchHit, query?: string): string {
  const part = hit.partID ?? (hit.index !== undefined ? String(hit.index) : undefined)
  // The search is marked where the hit is: in its part, or in the session's title.
  const marked = query && (part || hit.kind === 'title')
  return sessionHref({ id: hit.sessionID, storage: hit.storage }, {
    ...(hit.messageID ? { m: hit.messageID } : {}), ...(part ? { part } : {}), ...(marked ? { hl: query } : {}),
  })
}

export interface HitGroup {
  key: string
  sessionID: string
  storage: SearchHit['storage']
  title: string
  directory: string
  /** The session's group further up holds its earlier hits: these came with a later "load more". */
  continued: boolean
  hits: Array<{ hit: SearchHit; index: number }>
}

/**
 * Hits grouped by session, sessions in order of their best hit; `index` is the position in the
 * flat list. Hits loaded by a later "load more" (from each of `moreFrom`) group among themselves
 * below the ones on screen: a session seen above gets a continued group, so nothing grows out of
 * sight above the reader and the arrow keys' order only ever extends.
 */
export function groupBySession(hits: readonly SearchHit[], moreFrom: readonly number[] = []): HitGroup[] {
  const groups = new Map<string, HitGroup>()
  const seen = new Set<string>()
  let block = 0
  hits.forEach((hit, index) => {
    while (block < moreFrom.length && index >= moreFrom[block]!) {
      for (const g of groups.values()) seen.add(`${g.storage}:${g.sessionID}`)
      block++
    }
    const session = `${hit.storage}:${hit.sessionID}`
    const key = `${block}:${session}`
    let group = groups.get(key)
    if (!group) {
      group = { key, sessionID: hit.sessionID, storage: hit.storage, title: hit.sessionTitle, directory: hit.sessionDirectory, continued: seen.has(session), hits: [] }
      groups.set(key, group)
    }
    group.hits.push({ hit, index })
  })
  return [...groups.values()]
}

/** Display order of the flat list in grouped view, so arrow keys follow what is on screen. */
export const groupedOrder = (hits: readonly SearchHit[], moreFrom: readonly number[] = []) => groupBySession(hits, moreFrom).flatMap((g) => g.hits.map((h) => h.index))

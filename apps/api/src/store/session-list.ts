import type { SessionSort, SessionV2Table, StorageGeneration } from '@loupe/domain'
import { sql, type RawBuilder } from 'kysely'
import { createQueryBuilder } from '../lib/query-builder.js'
import type { SqliteDb } from '../lib/sqlite.js'
import type { SessionListFilters, SessionListQuery, SessionPageQuery, SessionPageRow, SessionRecord, SessionSums } from './opencode-store.js'
import { toSessionRecord } from './session-row.js'
import type { SessionTotalsTable } from './session-totals.js'

interface ListDB {
  /** The generation's own session rows (1.x rows lack the 2.x columns; toSessionRecord reads them as null). */
  s: SessionV2Table
  'temp.loupe_session_totals': SessionTotalsTable
}

const qb = createQueryBuilder<ListDB>()

/** How a generation's session rows are found: its table and which of its rows are its own. */
export interface SessionTableSpec {
  generation: StorageGeneration
  table: string
  own: string | null
}

const SIZE = sql<number>`(coalesce(t.message_bytes, 0) + coalesce(t.part_bytes, 0) + coalesce(t.event_bytes, 0))`
const TOKENS = sql<number>`(coalesce(s.tokens_input, 0) + coalesce(s.tokens_output, 0) + coalesce(s.tokens_reasoning, 0) + coalesce(s.tokens_cache_read, 0) + coalesce(s.tokens_cache_write, 0))`

/** Each sort's value in SQL: the session's own columns, or its totals (session-totals.ts). */
const SORT_VALUE: Record<SessionSort, RawBuilder<number>> = {
  updated: sql<number>`s.time_updated`,
  size: SIZE,
  eventBytes: sql<number>`coalesce(t.event_bytes, 0)`,
  tokens: TOKENS,
  cost: sql<number>`coalesce(s.cost, 0)`,
  messages: sql<number>`coalesce(t.messages, 0)`,
}

/** The generation's own rows the filters keep, as `s`. */
function ownRows(spec: SessionTableSpec, f: SessionListFilters) {
  const own = spec.own ? sql` WHERE ${sql.raw(spec.own)}` : sql``
  let q = qb.selectFrom(sql<SessionV2Table>`(SELECT * FROM ${sql.table(spec.table)}${own})`.as('s'))
  if (!f.includeArchived) q = q.where('s.time_archived', 'is', null)
  if (f.rootsOnly) q = q.where('s.parent_id', 'is', null)
  if (f.parentID) q = q.where('s.parent_id', '=', f.parentID)
  if (f.projectID) q = q.where('s.project_id', '=', f.projectID)
  if (f.directory) q = q.where('s.directory', '=', f.directory)
  if (f.search) {
    const text = f.search.toLowerCase()
    q = q.where(sql<boolean>`(instr(lower(coalesce(s.title, '')), ${text}) > 0 OR instr(lower(s.directory), ${text}) > 0 OR s.id = ${f.search})`)
  }
  return q
}

/** The same rows beside their totals (the totals table must be refreshed). */
function filtered(spec: SessionTableSpec, f: SessionListFilters) {
  return ownRows(spec, f).leftJoin('temp.loupe_session_totals as t', (j) => j.onRef('t.id', '=', 's.id').on('t.generation', '=', spec.generation))
}

/** Newest first by (time_updated, id), below `before`: needs no totals, so any caller may page with it. */
export function listSessionRecords(db: SqliteDb, spec: SessionTableSpec, query: SessionListQuery): SessionRecord[] {
  let q = ownRows(spec, query).selectAll('s')
  const before = query.before
  if (before) q = q.where((eb) => eb(eb.refTuple('s.time_updated', 's.id'), before.inclusive ? '<=' : '<', eb.tuple(before.timeUpdated, before.id)))
  return db.all(q.orderBy('s.time_updated', 'desc').orderBy('s.id', 'desc').limit(query.limit)).map((row) => toSessionRecord(spec.generation, row))
}

/**
 * Up to `limit` sessions of one generation in the query's order, past `after` (inclusive of an equal
 * key for the cross-generation tie-break), each with its totals. Needs the totals table refreshed.
 */
export function pageSessionRows(db: SqliteDb, spec: SessionTableSpec, query: SessionPageQuery): SessionPageRow[] {
  const value = SORT_VALUE[query.sort]
  const dir = query.order
  let q = filtered(spec, query)
    .selectAll('s')
    .select(['t.messages', 't.parts', 't.message_bytes', 't.part_bytes', 't.event_bytes', value.as('sort_value')])
  const after = query.after
  if (after) {
    const op = dir === 'desc' ? (after.inclusive ? '<=' : '<') : after.inclusive ? '>=' : '>'
    q = q.where(sql<boolean>`(${value}, s.id) ${sql.raw(op)} (${after.value}, ${after.id})`)
  }
  const rows = db.all(q.orderBy(value, dir).orderBy('s.id', dir).limit(query.limit))
  return rows.map((row) => ({
    record: toSessionRecord(spec.generation, row),
    sortValue: row.sort_value,
    stats: {
      messages: row.messages ?? 0,
      parts: spec.generation === 'v1' ? row.parts ?? 0 : null,
      bytes: { messages: row.message_bytes ?? 0, parts: row.part_bytes ?? 0, events: row.event_bytes ?? 0 },
    },
  }))
}

/** Count, stored bytes, tokens and cost of every session of one generation the filters keep. */
export function sumSessionRows(db: SqliteDb, spec: SessionTableSpec, filters: SessionListFilters): SessionSums {
  const row = db.get(filtered(spec, filters).select([
    sql<number>`count(*)`.as('sessions'),
    sql<number>`coalesce(sum(${SIZE}), 0)`.as('bytes'),
    sql<number>`coalesce(sum(${TOKENS}), 0)`.as('tokens'),
    sql<number>`coalesce(sum(coalesce(s.cost, 0)), 0)`.as('cost'),
  ]))
  return row ?? { sessions: 0, bytes: 0, tokens: 0, cost: 0 }
}

/** Sessions per project among those the filters keep (the project menu's counts). */
export function countSessionRowsByProject(db: SqliteDb, spec: SessionTableSpec, filters: SessionListFilters): Map<string, number> {
  const rows = db.all(filtered(spec, filters).select(['s.project_id', sql<number>`count(*)`.as('n')]).groupBy('s.project_id'))
  return new Map(rows.map((r) => [r.project_id, r.n]))
}

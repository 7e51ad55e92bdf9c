import type { JsonObject, MessageID, NativeMessage, OpenCodeV2DB } from '@loupe/domain'
import { sql } from 'kysely'
import { createQueryBuilder } from '../lib/query-builder.js'
import type { SqliteDb } from '../lib/sqlite.js'
import { eventBreakdown, eventBytesBySession } from './event-breakdown.js'
import { ownSessionsWhere } from './experimental-rows.js'
import { createGalleryV2Store } from './gallery-v2.store.js'
import { createV2IndexSource } from './index-source-v2.store.js'
import { inlineMediaRefs, mayHoldMediaRef, mediaSupport } from './media-blob.js'
import type { GenerationLayout, StorageLayout } from './probe.js'
import { createPruneV2Store } from './prune-v2.store.js'
import { parseObject, parseObjectCanonical } from './parse-object.js'
import { chunk, toSessionRecord } from './session-row.js'
import { countSessionRowsByProject, listSessionRecords, pageSessionRows, sumSessionRows } from './session-list.js'
import { createUsageRole } from './usage.store.js'
import { createTotalsSource, V2_ROW_SUMS } from './session-totals.js'
import type { BreakdownRow, LoadedMessage, MessageSlot, MessageWindow, OpenCodeStore, SessionStats, SharedRoles } from './opencode-store.js'

const qb = createQueryBuilder<OpenCodeV2DB>()

// Upstream 2.x (zjdCander/opencode@1066927b packages/schema/src/session-event.ts) writes each durable
// event once per step; 1.18's experimental rows keep their events in the 1.x log, which 1.x compacts.
const NOTHING_TO_COMPACT =
  '2.x sessions: nothing to compact. Upstream 2.x stores no superseded snapshots: each durable event records one step once ' +
  '(session.tool.called / success / failed, session.reasoning.ended, …), running-tool progress and deltas are ephemeral ' +
  '(packages/schema/src/session-event.ts), and plain `opencode serve` persists no events at all (#42839).'

/** Typed as session_v2 (a superset of the 1.x columns); the experimental layout reads `session`. */
type SessionTableName = 'session_v2'

/** The generation's session rows: `session_v2`, or the `session` rows that own session_message rows (experimental-rows.ts). */
function sessionRows(table: SessionTableName, own: string | null) {
  const q = qb.selectFrom(table).selectAll(table)
  return own ? q.where(sql<boolean>`${sql.raw(own)}`) : q
}

/** Message counts and stored bytes per session (parts are inline, so not counted), plus the event log's. */
function v2SessionStats(db: SqliteDb, ids: readonly string[], hasEvents: boolean): Map<string, SessionStats> {
  const stats = new Map<string, SessionStats>(ids.map((id) => [id, { messages: 0, parts: null, bytes: { messages: 0, parts: 0, events: 0 } }]))
  for (const group of chunk(ids)) {
    const rows = db.all(
      qb.selectFrom('session_message')
        .select(['session_id', sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(octet_length(data)), 0)`.as('bytes')])
        .where('session_id', 'in', group).groupBy('session_id'),
    )
    for (const r of rows) Object.assign(stats.get(r.session_id)!, { messages: r.n }).bytes.messages = r.bytes
    if (!hasEvents) continue
    for (const [id, bytes] of eventBytesBySession(db, group)) stats.get(id)!.bytes.events = bytes
  }
  return stats
}

/** Message positions `(seq, id)` from the window's anchor, in transcript order (seq is unique per session). */
function v2MessageSlots(db: SqliteDb, sessionID: string, window: MessageWindow, limit: number): MessageSlot[] {
  let q = qb.selectFrom('session_message').select(['id', 'seq', sql<number>`octet_length(data)`.as('bytes')]).where('session_id', '=', sessionID)
  const descending = window.kind === 'latest' || window.kind === 'before'
  if (window.kind === 'before') q = q.where('seq', '<', window.key.t)
  if (window.kind === 'after') q = q.where('seq', '>', window.key.t)
  if (window.kind === 'at') q = q.where('seq', '>=', window.key.t)
  const rows = db.all(q.orderBy('seq', descending ? 'desc' : 'asc').limit(limit))
  if (descending) rows.reverse()
  return rows.map((r): MessageSlot => ({ key: { t: r.seq, id: r.id }, bytes: r.bytes }))
}

function loadV2Messages(db: SqliteDb, sessionID: string, ids: readonly string[], opts: { inline: boolean; canonical: boolean }): LoadedMessage[] {
  const out: LoadedMessage[] = []
  for (const group of chunk(ids)) {
    const rows = db.all(qb.selectFrom('session_message').select(['id', 'type', 'seq', 'data']).where('session_id', '=', sessionID).where('id', 'in', group))
    const byId = new Map(rows.map((r) => [r.id, r]))
    for (const id of group) {
      const row = byId.get(id)
      if (!row) continue
      const read = parseObjectCanonical(row.data, opts.canonical)
      const data = read.value ?? {}
      const message: LoadedMessage = toNative(row.id, row.type, row.seq, opts.inline ? inlineMediaRefs(db, data) : data)
      // Items whose media refs are inlined read differently from the text: serialized from the value.
      if (opts.canonical) {
        message.canonicalItems = read.canonical && !(opts.inline && mayHoldMediaRef(row.data)) ? read.canonical.elements.get('content') : undefined
        message.storedText = row.data
      }
      out.push(message)
    }
  }
  return out
}

function v2BytesBreakdown(db: SqliteDb, sessionID: string, hasEvents: boolean): BreakdownRow[] {
  const rows = db.allSql<BreakdownRow>(
    `SELECT 'part' AS area, coalesce(json_extract(c.value, '$.type'), '?') AS kind,
            CASE WHEN json_extract(c.value, '$.type') = 'tool' THEN json_extract(c.value, '$.name') END AS tool,
            count(*) AS count, sum(octet_length(c.value)) AS bytes
       FROM session_message m, json_each(m.data, '$.content') c
      WHERE m.session_id = ? AND json_type(m.data, '$.content') = 'array' GROUP BY 2, 3
     UNION ALL
     SELECT 'part', 'file', NULL, count(*), sum(octet_length(f.value))
       FROM session_message m, json_each(m.data, '$.files') f
      WHERE m.session_id = ? AND json_type(m.data, '$.files') = 'array'
     HAVING count(*) > 0
     UNION ALL
     SELECT 'message', m.type, NULL, count(*), sum(octet_length(json_remove(m.data, '$.content', '$.files')))
       FROM session_message m WHERE m.session_id = ? GROUP BY m.type`,
    [sessionID, sessionID, sessionID],
  )
  if (hasEvents) rows.push(...eventBreakdown(db, sessionID))
  return rows
}

/**
 * OpenCode 2.x: `session_v2` plus `session_message` (one row per message, ordered by `seq`, assistant
 * parts inline in `data.content[]`). Also 1.18's experimental rows, whose session row is in `session`.
 */
export function createOpenCodeV2Store(layout: GenerationLayout, storage: StorageLayout, shared: SharedRoles): OpenCodeStore {
  const table = layout.sessionTable as SessionTableName
  const own = ownSessionsWhere(layout, storage, layout.sessionTable)
  const sessions = sessionRows(table, own)
  const hasEvents = storage.eventLog
  const spec = { generation: 'v2' as const, table: layout.sessionTable, own }
  // Whether 2.x advances a session's seq with every content write is unverified, and Loupe's 2.x prune
  // does not: any change of the file computes the 2.x totals again.
  const totalsSource = createTotalsSource({ ...spec, rows: V2_ROW_SUMS, eventLog: hasEvents, stamped: false })
  const support = mediaSupport(storage)
  const media = support === 'recognized'
  return {
    generation: 'v2',
    layout,
    indexSource: createV2IndexSource(layout, storage),
    eventCompaction: { log: null, note: layout.experimental ? null : NOTHING_TO_COMPACT },
    prune: createPruneV2Store(layout, storage, support, shared),
    gallery: createGalleryV2Store(support),
    receipts: shared.receipts,
    usage: createUsageRole(layout, storage, totalsSource.stamps),
    partKeyAt: (_message, index) => String(index),
    listSessions: (db, query) => listSessionRecords(db, spec, query),
    totalsSource,
    pageSessions: (db, query) => pageSessionRows(db, spec, query),
    sumSessions: (db, filters) => sumSessionRows(db, spec, filters),
    getSession(db, id) {
      const row = db.get(sessions.where(`${table}.id`, '=', id))
      return row ? toSessionRecord('v2', row) : undefined
    },
    sessionStats: (db, ids) => v2SessionStats(db, ids, hasEvents),
    countMessages(db, sessionID) {
      return db.get(qb.selectFrom('session_message').select(sql<number>`count(*)`.as('n')).where('session_id', '=', sessionID))?.n ?? 0
    },
    messageSlots: v2MessageSlots,
    findMessageKey(db, sessionID, messageID) {
      const row = db.get(qb.selectFrom('session_message').select(['id', 'seq']).where('session_id', '=', sessionID).where('id', '=', messageID))
      return row ? { t: row.seq, id: row.id } : undefined
    },
    loadMessages(db: SqliteDb, sessionID: string, ids: readonly string[], options?: { media?: 'inline' | 'refs'; canonical?: boolean }) {
      return loadV2Messages(db, sessionID, ids, { inline: media && options?.media !== 'refs', canonical: options?.canonical === true })
    },
    loadOmitted(db, sessionID, id, bytes) {
      const row = db.getSql<{ type: string; seq: number; data: string }>(
        `SELECT type, seq, json_remove(data, '$.content', '$.files') AS data FROM session_message WHERE session_id = ? AND id = ?`,
        [sessionID, id],
      )
      if (!row) return undefined
      return { ...toNative(id, row.type, row.seq, parseObject(row.data) ?? {}), omitted: { reason: 'limit', bytes } }
    },
    *iterateParts(db, sessionID) {
      const rows = db.raw
        .prepare(`SELECT c.value AS item FROM session_message m, json_each(m.data, '$.content') c
                   WHERE m.session_id = ? AND json_type(m.data, '$.content') = 'array'`)
        .iterate(sessionID) as Iterable<{ item: string }>
      for (const row of rows) yield parseObject(row.item)
    },
    countByProject: (db, filters) => countSessionRowsByProject(db, spec, filters),
    bytesBreakdown: (db, sessionID) => v2BytesBreakdown(db, sessionID, hasEvents),
  }
}

function toNative(id: string, type: string, seq: number, data: JsonObject): NativeMessage {
  return { storage: 'v2', id: id as MessageID, seq, message: { ...data, id, type } }
}

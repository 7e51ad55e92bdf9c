import { objectPieces, type CanonicalNativeMessage, type CanonicalPieces, type JsonObject, type MessageID, type OpenCodeV1DB } from '@loupe/domain'
import { sql } from 'kysely'
import { createQueryBuilder } from '../lib/query-builder.js'
import type { SqliteDb } from '../lib/sqlite.js'
import { eventBreakdown, eventBytesBySession } from './event-breakdown.js'
import { createV1EventCompaction } from './event-compaction.store.js'
import { ownSessionsWhere } from './experimental-rows.js'
import { createGalleryV1Store } from './gallery-v1.store.js'
import { createV1IndexSource } from './index-source-v1.store.js'
import { inlineMediaRefs, mayHoldMediaRef, mediaSupport } from './media-blob.js'
import type { BreakdownRow, MessageSlot, MessageWindow, OpenCodeStore, SessionStats, SharedRoles } from './opencode-store.js'
import type { EventCompactionRole } from './event-compaction.store.js'
import type { GenerationLayout, StorageLayout } from './probe.js'
import { createPruneV1Store } from './prune-v1.store.js'
import { parseObject, parseObjectCanonical } from './parse-object.js'
import { chunk, toSessionRecord } from './session-row.js'
import { countSessionRowsByProject, listSessionRecords, pageSessionRows, sumSessionRows } from './session-list.js'
import { createUsageRole } from './usage.store.js'
import { createTotalsSource, V1_ROW_SUMS } from './session-totals.js'

const qb = createQueryBuilder<OpenCodeV1DB>()

/** The 1.x `session` rows; where 1.18's experimental 2.x sessions share the table, without theirs (experimental-rows.ts). */
function sessionRows(own: string | null) {
  const q = qb.selectFrom('session').selectAll('session')
  return own ? q.where(sql<boolean>`${sql.raw(own)}`) : q
}

/** Row counts and stored bytes per session: `message` and `part` rows, and the event log's when it has one. */
function v1SessionStats(db: SqliteDb, ids: readonly string[], hasEvents: boolean): Map<string, SessionStats> {
  const stats = new Map<string, SessionStats>(ids.map((id) => [id, { messages: 0, parts: 0, bytes: { messages: 0, parts: 0, events: 0 } }]))
  const sums = (table: 'message' | 'part', group: string[]) =>
    db.all(
      qb.selectFrom(table).select(['session_id', sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(octet_length(data)), 0)`.as('bytes')])
        .where('session_id', 'in', group).groupBy('session_id'),
    )
  for (const group of chunk(ids)) {
    for (const m of sums('message', group)) Object.assign(stats.get(m.session_id)!, { messages: m.n }).bytes.messages = m.bytes
    for (const p of sums('part', group)) Object.assign(stats.get(p.session_id)!, { parts: p.n }).bytes.parts = p.bytes
    if (!hasEvents) continue
    for (const [id, bytes] of eventBytesBySession(db, group)) stats.get(id)!.bytes.events = bytes
  }
  return stats
}

/** Message positions `(time_created, id)` from the window's anchor, in transcript order, sized with their parts. */
function v1MessageSlots(db: SqliteDb, sessionID: string, window: MessageWindow, limit: number): MessageSlot[] {
  let q = qb.selectFrom('message').select(['id', 'time_created', sql<number>`octet_length(data)`.as('bytes')]).where('session_id', '=', sessionID)
  const descending = window.kind === 'latest' || window.kind === 'before'
  if (window.kind === 'before' || window.kind === 'after' || window.kind === 'at') {
    const { t, id } = window.key
    const op = window.kind === 'before' ? '<' : window.kind === 'after' ? '>' : '>='
    q = q.where((eb) => eb(eb.refTuple('time_created', 'id'), op, eb.tuple(t, id)))
  }
  const order = descending ? 'desc' : 'asc'
  const rows = db.all(q.orderBy('time_created', order).orderBy('id', order).limit(limit))
  if (descending) rows.reverse()
  const partBytes = new Map<string, number>()
  for (const group of chunk(rows.map((r) => r.id))) {
    const sums = db.all(
      qb.selectFrom('part').select(['message_id', sql<number>`sum(octet_length(data))`.as('bytes')])
        .where('message_id', 'in', group).groupBy('message_id'),
    )
    for (const s of sums) partBytes.set(s.message_id, s.bytes)
  }
  return rows.map((r): MessageSlot => ({ key: { t: r.time_created, id: r.id }, bytes: r.bytes + (partBytes.get(r.id) ?? 0) }))
}

type PartsOf = Map<string, { parts: JsonObject[]; canonical: (CanonicalPieces | undefined)[] }>

/** The parts of these messages in id order, each with its ids set as OpenCode's API reads them. */
function readV1Parts(db: SqliteDb, sessionID: string, group: string[], opts: { inline: boolean; canonical: boolean }): PartsOf {
  // `+session_id`: with a long IN list the planner would rather walk the whole session's parts
  // (part_session_idx) for every group, quadratic in a long session; by message it is one seek each.
  const parts = db.all(
    qb.selectFrom('part').select(['id', 'message_id', 'data']).where('message_id', 'in', group).where(sql<string>`+session_id`, '=', sessionID)
      .orderBy('message_id').orderBy('id'),
  )
  const byMessage: PartsOf = new Map()
  for (const p of parts) {
    const entry = byMessage.get(p.message_id) ?? { parts: [], canonical: [] }
    const read = parseObjectCanonical(p.data, opts.canonical)
    const overrides = { id: p.id, sessionID, messageID: p.message_id }
    entry.parts.push({ ...(read.value ?? {}), ...overrides })
    // A part whose media refs are inlined reads differently from its text: serialized from the value.
    const known = read.canonical && !(opts.inline && mayHoldMediaRef(p.data)) ? read.canonical : null
    entry.canonical.push(known ? objectPieces(known.members, overrides) : undefined)
    byMessage.set(p.message_id, entry)
  }
  return byMessage
}

function loadV1Messages(db: SqliteDb, sessionID: string, ids: readonly string[], opts: { inline: boolean; canonical: boolean }): CanonicalNativeMessage[] {
  const out: CanonicalNativeMessage[] = []
  for (const group of chunk(ids)) {
    const rows = db.all(qb.selectFrom('message').select(['id', 'data']).where('session_id', '=', sessionID).where('id', 'in', group))
    const byMessage = readV1Parts(db, sessionID, group, opts)
    const byId = new Map(rows.map((r) => [r.id, r]))
    for (const id of group) {
      const row = byId.get(id)
      if (!row) continue
      const entry = byMessage.get(id) ?? { parts: [], canonical: [] }
      const info = { ...(parseObject(row.data) ?? {}), id, sessionID }
      const message: CanonicalNativeMessage = { storage: 'v1', id: id as MessageID, info, parts: opts.inline ? inlineMediaRefs(db, entry.parts) : entry.parts }
      if (opts.canonical) message.canonicalItems = entry.canonical
      out.push(message)
    }
  }
  return out
}

function v1BytesBreakdown(db: SqliteDb, sessionID: string, hasEvents: boolean): BreakdownRow[] {
  const rows: BreakdownRow[] = db.allSql<BreakdownRow>(
    `SELECT 'part' AS area, coalesce(json_extract(data, '$.type'), '?') AS kind,
            CASE WHEN json_extract(data, '$.type') = 'tool' THEN json_extract(data, '$.tool') END AS tool,
            count(*) AS count, sum(octet_length(data)) AS bytes
       FROM part WHERE session_id = ? GROUP BY 2, 3`,
    [sessionID],
  )
  const info = db.getSql<{ count: number; bytes: number | null }>(
    `SELECT count(*) AS count, sum(octet_length(data)) AS bytes FROM message WHERE session_id = ?`, [sessionID])
  if (info?.count) rows.push({ area: 'message', kind: 'info', tool: null, count: info.count, bytes: info.bytes ?? 0 })
  if (hasEvents) rows.push(...eventBreakdown(db, sessionID))
  return rows
}

/** OpenCode 1.x: `session`, `message` (info JSON) and `part` (one row per part), read as OpenCode's API does. */
export function createOpenCodeV1Store(layout: GenerationLayout, storage: StorageLayout, shared: SharedRoles): OpenCodeStore {
  const own = ownSessionsWhere(layout, storage, 'session')
  const sessions = sessionRows(own)
  const hasEvents = storage.eventLog
  const table = { generation: 'v1' as const, table: 'session', own }
  // 1.18.33 advances a session's event_sequence.seq with every write to its rows (opencode-storage.md §8.2), as Loupe's prune does.
  const totalsSource = createTotalsSource({ ...table, rows: V1_ROW_SUMS, eventLog: hasEvents, stamped: true })
  const support = mediaSupport(storage)
  const media = support === 'recognized'
  return {
    generation: 'v1',
    layout,
    indexSource: createV1IndexSource(layout, storage),
    eventCompaction: touchOnCompaction(createV1EventCompaction(hasEvents), shared),
    prune: createPruneV1Store(storage, support, shared),
    gallery: createGalleryV1Store(support),
    receipts: shared.receipts,
    usage: createUsageRole(layout, storage, totalsSource.stamps),
    partKeyAt(message, index) {
      const id = message.storage === 'v1' ? message.parts[index]?.id : undefined
      return typeof id === 'string' ? id : String(index)
    },
    listSessions: (db, query) => listSessionRecords(db, table, query),
    totalsSource,
    pageSessions: (db, query) => pageSessionRows(db, table, query),
    sumSessions: (db, filters) => sumSessionRows(db, table, filters),
    getSession(db, id) {
      const row = db.get(sessions.where('session.id', '=', id))
      return row ? toSessionRecord('v1', row) : undefined
    },
    sessionStats: (db, ids) => v1SessionStats(db, ids, hasEvents),
    countMessages(db, sessionID) {
      return db.get(qb.selectFrom('message').select(sql<number>`count(*)`.as('n')).where('session_id', '=', sessionID))?.n ?? 0
    },
    messageSlots: v1MessageSlots,
    findMessageKey(db, sessionID, messageID) {
      const row = db.get(qb.selectFrom('message').select(['id', 'time_created']).where('session_id', '=', sessionID).where('id', '=', messageID))
      return row ? { t: row.time_created, id: row.id } : undefined
    },
    loadMessages(db: SqliteDb, sessionID: string, ids: readonly string[], options?: { media?: 'inline' | 'refs'; canonical?: boolean }) {
      return loadV1Messages(db, sessionID, ids, { inline: media && options?.media !== 'refs', canonical: options?.canonical === true })
    },
    loadOmitted(db, sessionID, id, bytes) {
      const row = db.get(qb.selectFrom('message').select(['id', 'data']).where('session_id', '=', sessionID).where('id', '=', id))
      if (!row) return undefined
      const info = { ...(parseObject(row.data) ?? {}), id, sessionID }
      return { storage: 'v1', id: id as MessageID, info, parts: [], omitted: { reason: 'limit', bytes } }
    },
    *iterateParts(db, sessionID) {
      for (const row of db.raw.prepare(`SELECT data FROM part WHERE session_id = ?`).iterate(sessionID) as Iterable<{ data: string }>) {
        yield parseObject(row.data)
      }
    },
    countByProject: (db, filters) => countSessionRowsByProject(db, table, filters),
    bytesBreakdown: (db, sessionID) => v1BytesBreakdown(db, sessionID, hasEvents),
  }
}

/** Compaction rewrites events in place and keeps their seq, so the session's totals are marked stale by hand. */
function touchOnCompaction(role: EventCompactionRole, shared: SharedRoles): EventCompactionRole {
  const log = role.log
  if (!log) return role
  return {
    ...role,
    log: {
      ...log,
      apply(db, sessionID, batch) {
        shared.totals.touch('v1', sessionID)
        return log.apply(db, sessionID, batch)
      },
    },
  }
}

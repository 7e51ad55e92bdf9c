import { isObject } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { collectMediaRefs, mayHoldMediaRef, releaseMediaRefs, type MediaSupport } from './media-blob.js'
import type { StorageLayout } from './probe.js'
import { minimalV1Part } from './minimal-v1-part.js'
import { chunk } from './session-row.js'
import { nextEventIds } from './event-ids.js'
import type { EventLocator } from './event-locator.js'
import type { SharedRoles } from './opencode-store.js'
import { readSessionFence } from './session-fence.js'
import { PruneConflict, PruneUnsupported, type PruneEffects, type PruneStore, type PruneWrite } from './prune.store.js'

/**
 * OpenCode 1.x (`message` + `part` + the event log): delete the part rows, redact their earlier
 * events, and append one `message.part.removed.1` per part exactly as OpenCode's own `part.delete`
 * does (next seq, `event_sequence` advanced first). Events are never deleted or renumbered.
 */
export function createPruneV1Store(layout: StorageLayout, media: MediaSupport, shared: Pick<SharedRoles, 'locator' | 'schema'>): PruneStore {
  const { locator } = shared
  const events = layout.eventLog
  // An upgraded 2.x file adds `event.created` (ms), which OpenCode fills on every append.
  const created = layout.columns.event?.includes('created') ?? false
  // An upgraded 2.x file keeps this copy beside `session_v2`, sharing the log 2.x replays: a
  // `message.part.removed.1` there is an unknown durable event to 2.x, so such sessions are fenced.
  const twin = layout.tables.includes('session_v2') ? 'session_v2' : null
  return {
    media,
    schema: shared.schema,
    tables: ['session', 'message', 'part', ...(events ? ['event', 'event_sequence'] : [])],
    sessionFence: (db, sessionID) => readSessionFence(db, { table: 'session', suspended: false, events, twin }, sessionID),
    copiesElsewhere: () => [],
    forkCopies: () => [],
    compactionCopies: () => 0,
    // 1.x compaction boundaries (summary messages) are not mapped yet: every message counts as context.
    storageOnlyMessages: () => new Set(),
    storedBytes(db, sessionID, messageID) {
      const row = db.getSql<{ bytes: number }>(`SELECT octet_length(data) AS bytes FROM message WHERE id = ? AND session_id = ?`, [messageID, sessionID])
      if (!row) return undefined
      // `+session_id`: look parts up by message (part_message_id_id_idx), never by scanning the session.
      const parts = db.getSql<{ bytes: number | null }>(`SELECT sum(octet_length(data)) AS bytes FROM part WHERE message_id = ? AND +session_id = ?`, [messageID, sessionID])
      return row.bytes + (parts?.bytes ?? 0)
    },
    apply(db, write) {
      return applyV1(db, write, { events, media, created, locator })
    },
  }
}

function applyV1(db: SqliteDb, { sessionID, messageID, plan, now, randomBytes }: PruneWrite, opts: { events: boolean; media: MediaSupport; created: boolean; locator: EventLocator }): PruneEffects {
  const parts = plan.removedParts.filter(isObject)
  if (parts.length !== plan.removed.length) throw new PruneConflict('a removed part is not an object')
  const ids = parts.map((p) => String(p.id))
  const effects: PruneEffects = { eventsRedacted: 0, eventsAppended: 0, mediaRefsReleased: 0, blobsDeleted: 0 }

  // Refs exist only where the blob tables are recognized (elsewhere the read form kept them, and
  // the transaction refused): only then is the stored form of the removed parts read again.
  const digests = new Set<string>()
  for (const group of opts.media === 'recognized' ? chunk(ids) : []) {
    const rows = db.allSql<{ data: string }>(`SELECT data FROM part WHERE id IN (${group.map(() => '?').join(',')})`, group)
    for (const row of rows) if (mayHoldMediaRef(row.data)) collectMediaRefs(JSON.parse(row.data), digests)
  }
  if (digests.size > 0) {
    if (opts.media !== 'recognized') throw new PruneUnsupported('media refs without recognized blob tables')
    const released = releaseMediaRefs(db, { owners: ids, removed: digests, kept: new Set() })
    effects.mediaRefsReleased = released.refs
    effects.blobsDeleted = released.blobs
  }

  for (const id of ids) {
    if (db.runSql(`DELETE FROM part WHERE id = ? AND +message_id = ? AND +session_id = ?`, [id, messageID, sessionID]) !== 1) {
      throw new PruneConflict(`part ${id} is gone`)
    }
  }
  if (!opts.events) return effects

  // Only the events the locator names are written. One it read in this transaction comes redacted
  // already (same json_set, same row); any other is checked to carry the part as it changes.
  const replacements = new Map(parts.map((part) => [String(part.id), JSON.stringify(minimalV1Part(part))]))
  for (const [partID, events] of opts.locator.eventsOf(db, sessionID, replacements)) {
    for (const event of events) {
      effects.eventsRedacted += event.redacted === undefined
        ? db.runSql(
          `UPDATE event SET data = json_set(data, '$.part', json(?))
            WHERE id = ? AND aggregate_id = ? AND type = 'message.part.updated.1' AND json_extract(data, '$.part.id') = ?`,
          [replacements.get(partID), event.id, sessionID, partID],
        )
        : db.runSql(`UPDATE event SET data = CAST(? AS TEXT) WHERE id = ? AND aggregate_id = ? AND type = 'message.part.updated.1'`, [event.redacted, event.id, sessionID])
    }
  }

  // A session without a sequence row has no log to extend (imported, or wiped by a migration).
  const sequence = db.getSql<{ seq: number }>(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`, [sessionID])
  if (!sequence) return effects
  const eventIds = nextEventIds(db, now, ids.length, randomBytes)
  const last = sequence.seq + ids.length
  db.runSql(`UPDATE event_sequence SET seq = ? WHERE aggregate_id = ?`, [last, sessionID])
  ids.forEach((partID, i) => {
    const data = JSON.stringify({ sessionID, messageID, partID })
    const row = [eventIds[i], sessionID, sequence.seq + 1 + i, data]
    if (opts.created) db.runSql(`INSERT INTO event (id, aggregate_id, seq, type, data, created) VALUES (?, ?, ?, 'message.part.removed.1', ?, ?)`, [...row, now])
    else db.runSql(`INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, 'message.part.removed.1', ?)`, row)
  })
  effects.eventsAppended = ids.length
  return effects
}

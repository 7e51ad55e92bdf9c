import type { SqliteDb } from '../lib/sqlite.js'
import { collectMediaRefs, mayHoldMediaRef, releaseMediaRefs, type MediaSupport } from './media-blob.js'
import type { SharedRoles } from './opencode-store.js'
import type { GenerationLayout, StorageLayout } from './probe.js'
import { readSessionFence } from './session-fence.js'
import { appendContentUpdated, redactContentEvents } from './content-events-v2.js'
import { PruneConflict, PruneUnsupported, type ForkCopy, type PruneEffects, type PruneStore, type PruneWrite } from './prune.store.js'

type Json = Record<string, unknown>

/**
 * OpenCode 2.x (`session_message`, parts inline in `data.content[]`; also 1.18's experimental rows):
 * remove the items from `content[]` by compare-and-swap on the exact stored `data`, keep `seq`,
 * release media refs only removed items named, and redact the matching content events in place.
 */
export function createPruneV2Store(g: GenerationLayout, layout: StorageLayout, media: MediaSupport, shared: Pick<SharedRoles, 'schema'>): PruneStore {
  const table = g.sessionTable
  const suspended = layout.columns[table]?.includes('time_suspended') ?? false
  const events = layout.eventLog
  // 1.18's experimental rows have no replay-only content event; a real 2.x log does (content-events-v2.ts).
  const replayable = !g.experimental && (layout.columns.event?.includes('created') ?? false)
  // An upgraded file keeps the 1.x copy of imported sessions under the same id.
  const forks = table === 'session_v2' && (layout.columns.session_v2?.includes('fork_session_id') ?? false)
  const twin = table === 'session_v2' && layout.tables.includes('session') ? 'session' : null
  return {
    media,
    schema: shared.schema,
    tables: [table, 'session_message', ...(events ? ['event', 'event_sequence'] : [])],
    sessionFence: (db, sessionID) => readSessionFence(db, { table, suspended, events, twin }, sessionID),
    storageOnlyMessages: (db, sessionID) => beforeLatestCompaction(db, sessionID),
    compactionCopies: (db, sessionID, messageID) => quotedByCompactions(db, sessionID, messageID),
    copiesElsewhere: (db, sessionID, messageID) => (forks ? forkCopies(db, sessionID, messageID) : []),
    forkCopies: (db, sessionID, messageIDs) => (forks && messageIDs.length > 0 ? copiesInForks(db, sessionID, messageIDs) : []),
    storedBytes(db, sessionID, messageID) {
      return db.getSql<{ bytes: number }>(`SELECT octet_length(data) AS bytes FROM session_message WHERE id = ? AND session_id = ?`, [messageID, sessionID])?.bytes
    },
    apply(db, write) {
      const effects = rewriteContent(db, write, media)
      if (!events) return effects
      effects.eventsRedacted = redactContentEvents(db, write)
      if (replayable) {
        const appended = appendContentUpdated(db, write)
        effects.eventsRedacted += appended.redacted
        effects.eventsAppended = appended.appended
      }
      return effects
    },
  }
}

function rewriteContent(db: SqliteDb, { sessionID, messageID, plan, storedText, now }: PruneWrite, media: MediaSupport): PruneEffects {
  const effects: PruneEffects = { eventsRedacted: 0, eventsAppended: 0, mediaRefsReleased: 0, blobsDeleted: 0 }
  const stored = storedText ?? db.getSql<{ data: string }>(`SELECT data FROM session_message WHERE id = ? AND session_id = ?`, [messageID, sessionID])?.data
  if (stored === undefined) throw new PruneConflict('message is gone')
  // Survivors keep their stored bytes (media refs stay refs): items leave by position, highest first.
  let expr = 'data'
  const descending = [...plan.removed].reverse()
  for (let i = 0; i < descending.length; i += 100) {
    const paths = descending.slice(i, i + 100).map((n) => `'$.content[${n}]'`).join(', ')
    expr = `json_remove(${expr}, ${paths})`
  }
  const changed = db.runSql(
    `UPDATE session_message SET data = ${expr}, time_updated = ? WHERE id = ? AND session_id = ? AND data = ?`,
    [now, messageID, sessionID, stored],
  )
  if (changed !== 1) throw new PruneConflict('message changed')

  if (!mayHoldMediaRef(stored)) return effects
  const content = (JSON.parse(stored) as Json).content as unknown[]
  const removed = new Set<string>()
  const kept = new Set<string>()
  const gone = new Set(plan.removed)
  content.forEach((item, i) => collectMediaRefs(item, gone.has(i) ? removed : kept))
  if (removed.size === 0) return effects
  if (media !== 'recognized') throw new PruneUnsupported('media refs without recognized blob tables')
  const released = releaseMediaRefs(db, { owners: [messageID], removed, kept })
  effects.mediaRefsReleased = released.refs
  effects.blobsDeleted = released.blobs
  return effects
}


/**
 * Forks that still hold this message as it is stored: upstream's `projectFork` copies the parent's
 * rows verbatim, same `seq` and `data` (zjdCander/opencode@1066927b packages/core/src/session/projector.ts),
 * so a prune of the parent leaves the copy. Forks of forks are followed.
 */
function forkCopies(db: SqliteDb, sessionID: string, messageID: string): { sessionID: string; title: string | null }[] {
  return db.allSql<{ sessionID: string; title: string | null }>(
    `WITH RECURSIVE forks(id) AS (
       SELECT id FROM session_v2 WHERE fork_session_id = ?
       UNION SELECT s.id FROM session_v2 s JOIN forks f ON s.fork_session_id = f.id
     ), target AS (SELECT seq, data FROM session_message WHERE id = ? AND session_id = ?)
     SELECT s.id AS sessionID, s.title AS title FROM forks f JOIN session_v2 s ON s.id = f.id
       JOIN session_message m ON m.session_id = s.id JOIN target t ON m.seq = t.seq AND m.data = t.data
      ORDER BY s.time_created, s.id`,
    [sessionID, messageID, sessionID],
  )
}

/**
 * The rows of forks (and their forks) equal to these messages' rows: upstream's projectFork copies
 * the parent's rows verbatim, same `seq` and `data` (zjdCander/opencode@1066927b
 * packages/core/src/session/projector.ts), so equal (seq, data) is the copy; once either side is
 * pruned they differ and are no longer one content.
 */
function copiesInForks(db: SqliteDb, sessionID: string, messageIDs: readonly string[]): ForkCopy[] {
  return db.allSql<ForkCopy>(
    `WITH RECURSIVE forks(id) AS (
       SELECT id FROM session_v2 WHERE fork_session_id = ?
       UNION SELECT s.id FROM session_v2 s JOIN forks f ON s.fork_session_id = f.id
     ), target AS (
       SELECT id, seq, data FROM session_message WHERE session_id = ? AND id IN (SELECT value FROM json_each(?))
     )
     SELECT s.id AS sessionID, s.title AS title, m.id AS messageID, t.id AS sourceID
       FROM forks f JOIN session_v2 s ON s.id = f.id
       JOIN session_message m ON m.session_id = s.id JOIN target t ON m.seq = t.seq AND m.data = t.data
      ORDER BY s.time_created, s.id, m.seq`,
    [sessionID, sessionID, JSON.stringify(messageIDs)],
  )
}

/**
 * The model's history starts at the latest completed compaction row that bounds it (seq >= that
 * row's seq are read; zjdCander/opencode@1066927b packages/core/src/session/history.ts
 * `latestCompaction` / `messageEntries`). A local summary (no `providerContext`) bounds every
 * reader; a native window only some models, so only local summaries make earlier rows storage only.
 */
function beforeLatestCompaction(db: SqliteDb, sessionID: string): Set<string> {
  const rows = db.allSql<{ id: string }>(
    `SELECT id FROM session_message WHERE session_id = ? AND seq < (
       SELECT max(seq) FROM session_message WHERE session_id = ? AND type = 'compaction'
          AND json_extract(data, '$.status') = 'completed' AND json_extract(data, '$.providerContext') IS NULL)`,
    [sessionID, sessionID],
  )
  return new Set(rows.map((r) => r.id))
}

/** Long enough not to match by chance; a compaction keeps at least this much of each output. */
const QUOTE_CHARS = 200
const MIN_QUOTE = 24

/**
 * Compaction rows keep `recent`, the retained tail as text with tool outputs cut to 1,250
 * characters (zjdCander/opencode@1066927b packages/core/src/session/compaction.ts
 * `TOOL_OUTPUT_MAX_CHARS`), so a pruned output can stay quoted there. Counts the rows whose
 * `recent` or `summary` contains the start of a tool text output or a reasoning text.
 */
function quotedByCompactions(db: SqliteDb, sessionID: string, messageID: string): number {
  const quotes = db.allSql<{ text: string }>(
    `SELECT substr(coalesce(json_extract(c.value, '$.text'), o.value ->> '$.text'), 1, ${QUOTE_CHARS}) AS text
       FROM session_message m, json_each(m.data, '$.content') c
       LEFT JOIN json_each(CASE WHEN c.value ->> '$.type' = 'tool' THEN c.value -> '$.state.content' ELSE '[]' END) o
      WHERE m.id = ? AND m.session_id = ? AND c.value ->> '$.type' IN ('tool', 'reasoning')`,
    [messageID, sessionID],
  ).map((q) => q.text).filter((t) => typeof t === 'string' && t.length >= MIN_QUOTE)
  if (quotes.length === 0) return 0
  return db.getSql<{ n: number }>(
    `SELECT count(*) AS n FROM session_message WHERE session_id = ? AND type = 'compaction' AND EXISTS (
       SELECT 1 FROM json_each(?) q WHERE instr(coalesce(json_extract(data, '$.recent'), '') || char(10) || coalesce(json_extract(data, '$.summary'), ''), q.value) > 0)`,
    [sessionID, JSON.stringify(quotes)],
  )?.n ?? 0
}

import { isObject } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { collectMediaRefs, mayHoldMediaRef, releaseMediaRefs, type MediaSupport } from './media-blob.js'
import type { SharedRoles } from './opencode-store.js'
import type { GenerationLayout, StorageLayout } from './probe.js'
import { readSessionFence } from './session-fence.js'
import { PruneConflict, PruneUnsupported, type PruneEffects, type PruneStore, type PruneWrite } from './prune.store.js'

type Json = Record<string, unknown>

/**
 * In-place redactions of 2.x content events (`session.tool.*` / `session.reasoning.*`, and 1.18's
 * experimental `session.next.*`): every value that carries content becomes the empty value of its
 * type; `id`, `seq`, `type`, `created` and every key stay, so each row still decodes.
 */
const TOOL_REDACTIONS: Record<string, string> = {
  'tool.input.ended.1': `json_replace(data, '$.text', '{}')`,
  'tool.called.1': `json_replace(data, '$.input', json('{}'))`,
  'tool.progress.1': `json_replace(data, '$.structured', json('{}'), '$.content', json('[]'))`,
  'tool.success.1': `json_replace(data, '$.structured', json('{}'), '$.content', json('[]'), '$.result.value', '')`,
  'tool.failed.1': `json_replace(data, '$.structured', json('{}'), '$.content', json('[]'), '$.error.message', '', '$.result.value', '')`,
}
const REASONING_REDACTION = `json_replace(data, '$.text', '')`
const FAMILIES = ['session.next.', 'session.']

/**
 * OpenCode 2.x (`session_message`, parts inline in `data.content[]`; also 1.18's experimental rows):
 * remove the items from `content[]` by compare-and-swap on the exact stored `data`, keep `seq`,
 * release media refs only removed items named, and redact the matching content events in place.
 */
export function createPruneV2Store(g: GenerationLayout, layout: StorageLayout, media: MediaSupport, shared: Pick<SharedRoles, 'schema'>): PruneStore {
  const table = g.sessionTable
  const suspended = layout.columns[table]?.includes('time_suspended') ?? false
  const events = layout.eventLog
  return {
    media,
    schema: shared.schema,
    tables: [table, 'session_message', ...(events ? ['event', 'event_sequence'] : [])],
    sessionFence: (db, sessionID) => readSessionFence(db, { table, suspended, events }, sessionID),
    storedBytes(db, sessionID, messageID) {
      return db.getSql<{ bytes: number }>(`SELECT octet_length(data) AS bytes FROM session_message WHERE id = ? AND session_id = ?`, [messageID, sessionID])?.bytes
    },
    apply(db, write) {
      const effects = rewriteContent(db, write, media)
      if (events) effects.eventsRedacted = redactEvents(db, write)
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

function redactEvents(db: SqliteDb, { sessionID, messageID, plan }: PruneWrite): number {
  const items = plan.removedParts.filter(isObject)
  const callIDs = items.filter((p) => p.type === 'tool' && typeof p.id === 'string').map((p) => p.id as string)
  const reasoning = items.filter((p) => p.type === 'reasoning')
  const reasoningIDs = reasoning.filter((p) => typeof p.id === 'string').map((p) => p.id as string)
  const reasoningTexts = reasoning.filter((p) => typeof p.id !== 'string' && typeof p.text === 'string' && p.text !== '').map((p) => p.text as string)
  const ofMessage = `coalesce(json_extract(data, '$.assistantMessageID'), json_extract(data, '$.messageID')) = ?`
  let count = 0
  for (const family of FAMILIES) {
    if (callIDs.length) {
      for (const [suffix, redaction] of Object.entries(TOOL_REDACTIONS)) {
        count += db.runSql(
          `UPDATE event SET data = ${redaction} WHERE aggregate_id = ? AND type = ? AND ${ofMessage}
             AND json_extract(data, '$.callID') IN (SELECT value FROM json_each(?))`,
          [sessionID, family + suffix, messageID, JSON.stringify(callIDs)],
        )
      }
    }
    const type = `${family}reasoning.ended.1`
    if (reasoningIDs.length) {
      count += db.runSql(
        `UPDATE event SET data = ${REASONING_REDACTION} WHERE aggregate_id = ? AND type = ? AND ${ofMessage}
           AND json_extract(data, '$.reasoningID') IN (SELECT value FROM json_each(?))`,
        [sessionID, type, messageID, JSON.stringify(reasoningIDs)],
      )
    }
    if (reasoningTexts.length) {
      count += db.runSql(
        `UPDATE event SET data = ${REASONING_REDACTION} WHERE aggregate_id = ? AND type = ? AND ${ofMessage}
           AND json_extract(data, '$.text') IN (SELECT value FROM json_each(?))`,
        [sessionID, type, messageID, JSON.stringify(reasoningTexts)],
      )
    }
  }
  return count
}

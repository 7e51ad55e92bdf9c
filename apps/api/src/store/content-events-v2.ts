import { isObject } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { nextEventIds } from './event-ids.js'
import type { PruneWrite } from './prune.store.js'

/**
 * The smallest `Content` upstream's decoder accepts where the schema says `NonEmptyArray(Content)`
 * (`session.tool.success.2` / `failed.2`, and the completed tool state): one empty text item.
 * An empty array throws in `Schema.decodeUnknownSync` when the log is read back.
 * Source: zjdCander/opencode@1066927b packages/schema/src/session-event.ts (Tool.Success, Tool.Failed)
 * and packages/schema/src/tool.ts (`TextContent.text: Schema.String`, so "" is valid).
 */
export const MINIMAL_CONTENT = '[{"type":"text","text":""}]'

const minimal = `json('${MINIMAL_CONTENT}')`
const EMPTY = `json('{}')`

/**
 * In-place redactions of content events, by stored type without the family prefix. `json_replace`
 * only rewrites keys that are present, so every row keeps its keys and still decodes.
 * - July (`*.1`, keyed on `callID`): `structured`, `content`, `result` (opencode-storage.md §9.8).
 * - Current (zjdCander/opencode@1066927b session-event.ts): `tool.input.ended.1` `{id, text}`,
 *   `tool.called.1` `{id, input}`, `tool.success.2` `{id, content: NonEmptyArray, metadata?}`,
 *   `tool.failed.2` `{id, error, content?: NonEmptyArray, metadata?}`; `tool.progress` is ephemeral.
 */
const TOOL_REDACTIONS: Record<string, string> = {
  'tool.input.ended.1': `json_replace(data, '$.text', '{}')`,
  'tool.called.1': `json_replace(data, '$.input', ${EMPTY})`,
  'tool.progress.1': `json_replace(data, '$.structured', ${EMPTY}, '$.metadata', ${EMPTY}, '$.content', ${minimal})`,
  'tool.success.1': `json_replace(data, '$.structured', ${EMPTY}, '$.metadata', ${EMPTY}, '$.content', ${minimal}, '$.result.value', '')`,
  'tool.failed.1': `json_replace(data, '$.structured', ${EMPTY}, '$.metadata', ${EMPTY}, '$.content', ${minimal}, '$.error.message', '', '$.result.value', '')`,
  'tool.success.2': `json_replace(data, '$.metadata', ${EMPTY}, '$.content', ${minimal})`,
  'tool.failed.2': `json_replace(data, '$.metadata', ${EMPTY}, '$.content', ${minimal}, '$.error.message', '')`,
}
const REASONING_REDACTION = `json_replace(data, '$.text', '')`
/** 1.18's experimental engine wrote `session.next.*`; upstream now writes `session.*`. */
const FAMILIES = ['session.next.', 'session.']
/** Current events name the call `id`, July and 1.18 events `callID`. */
const CALL_ID = `coalesce(json_extract(data, '$.id'), json_extract(data, '$.callID'))`
const OF_MESSAGE = `coalesce(json_extract(data, '$.assistantMessageID'), json_extract(data, '$.messageID')) = ?`

export const CONTENT_UPDATED = 'session.message.content.updated.1'

/** Redact, in place, every content event of the removed items; returns the rows changed. */
export function redactContentEvents(db: SqliteDb, { sessionID, messageID, plan }: PruneWrite): number {
  const items = plan.removedParts.filter(isObject)
  const callIDs = items.filter((p) => p.type === 'tool' && typeof p.id === 'string').map((p) => p.id as string)
  const reasoning = items.filter((p) => p.type === 'reasoning')
  const reasoningIDs = reasoning.filter((p) => typeof p.id === 'string').map((p) => p.id as string)
  const reasoningTexts = reasoning.filter((p) => typeof p.id !== 'string' && typeof p.text === 'string' && p.text !== '').map((p) => p.text as string)
  let count = 0
  const run = (type: string, redaction: string, key: string, values: string[]) => {
    if (values.length === 0) return
    count += db.runSql(
      `UPDATE event SET data = ${redaction} WHERE aggregate_id = ? AND type = ? AND ${OF_MESSAGE}
         AND ${key} IN (SELECT value FROM json_each(?))`,
      [sessionID, type, messageID, JSON.stringify(values)],
    )
  }
  for (const family of FAMILIES) {
    for (const [suffix, redaction] of Object.entries(TOOL_REDACTIONS)) run(family + suffix, redaction, CALL_ID, callIDs)
    run(`${family}reasoning.ended.1`, REASONING_REDACTION, `json_extract(data, '$.reasoningID')`, reasoningIDs)
    run(`${family}reasoning.ended.1`, REASONING_REDACTION, `json_extract(data, '$.text')`, reasoningTexts)
  }
  return count
}

/**
 * Make a replay of the log end at the pruned message. Upstream's projector rebuilds items from
 * `tool.input.started` / `reasoning.started`, which stay; its replay-only
 * `session.message.content.updated.1` replaces the message's whole `content`
 * (zjdCander/opencode@1066927b packages/schema/src/session-event.ts `MessageContentUpdated`;
 * AlemTuzlak/opencode@9dbba2fa packages/core/src/session/message-updater.ts). So: earlier copies of
 * that event for this message take the surviving content too (they would hold pruned items), and
 * one more is appended at the next seq, `event_sequence` advanced first as `commitDurableEvent`
 * does. Only for logs that upstream's 2.x writes: none for a session without stored events, and
 * none for 1.18's experimental `session.next.*` logs, whose decoder has no such event.
 */
export function appendContentUpdated(db: SqliteDb, { sessionID, messageID, now, randomBytes }: PruneWrite): { redacted: number; appended: number } {
  const sequence = db.getSql<{ seq: number }>(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`, [sessionID])
  if (!sequence) return { redacted: 0, appended: 0 }
  const log = db.getSql<{ n: number; next: number | null }>(
    `SELECT count(*) AS n, sum(type LIKE 'session.next.%') AS next FROM event WHERE aggregate_id = ?`, [sessionID],
  )
  if (!log || log.n === 0 || (log.next ?? 0) > 0) return { redacted: 0, appended: 0 }
  const content = db.getSql<{ content: string }>(
    `SELECT json_extract(data, '$.content') AS content FROM session_message WHERE id = ? AND session_id = ?`, [messageID, sessionID],
  )?.content ?? '[]'
  const redacted = db.runSql(
    `UPDATE event SET data = json_replace(data, '$.content', json(?)) WHERE aggregate_id = ? AND type = ? AND json_extract(data, '$.messageID') = ?`,
    [content, sessionID, CONTENT_UPDATED, messageID],
  )
  const [id] = nextEventIds(db, now, 1, randomBytes)
  const seq = sequence.seq + 1
  db.runSql(`UPDATE event_sequence SET seq = ? WHERE aggregate_id = ?`, [seq, sessionID])
  db.runSql(
    `INSERT INTO event (id, aggregate_id, seq, type, data, created)
     VALUES (?, ?, ?, ?, json_object('sessionID', ?, 'messageID', ?, 'content', json(?)), ?)`,
    [id, sessionID, seq, CONTENT_UPDATED, sessionID, messageID, content, now],
  )
  return { redacted, appended: 1 }
}

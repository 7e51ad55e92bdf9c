import type { SessionV2Table, StorageGeneration, UsageCell, UsageSession } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { GenerationLayout, StorageLayout } from './probe.js'
import { ownSessionsWhere } from './experimental-rows.js'

/**
 * A session's assistant messages of one model within one UTC minute (minutes since the epoch). Every
 * UTC offset is a whole number of minutes, so any offset's days are sums of these: a new offset
 * needs no message read again.
 */
export type MinuteCell = Omit<UsageCell, 'day'> & { minute: number }

/** One generation's usage reads: its assistant messages per UTC minute, session and model, and its sessions' own totals. */
export interface UsageRole {
  /** Every session's cells, or (with `ids`) only these sessions'. */
  minutes(db: SqliteDb, ids?: readonly string[]): MinuteCell[]
  sessions(db: SqliteDb): UsageSession[]
  /** `SELECT id, seq, time_updated` of every session when these move with every write to its messages (session-totals.ts), else null. */
  stamps: string | null
}

/** Where a generation keeps its assistant messages and how their JSON names model, tokens and cost. */
interface UsageSpec {
  generation: StorageGeneration
  /** The messages table and the condition that keeps assistant rows. */
  messages: { table: 'message' | 'session_message'; assistant: string }
  model: { provider: string; id: string }
}

// 1.x `message.data` (opencode-storage.md §6.1): role, modelID/providerID, tokens.cache.{read,write}, cost.
const V1: UsageSpec = {
  generation: 'v1',
  messages: { table: 'message', assistant: `json_extract(m.data, '$.role') = 'assistant'` },
  model: { provider: '$.providerID', id: '$.modelID' },
}
// 2.x `session_message` assistant rows (§9.3, and 1.18's experimental rows §4.5): model:{id, providerID}.
const V2: UsageSpec = {
  generation: 'v2',
  messages: { table: 'session_message', assistant: `m.type = 'assistant'` },
  model: { provider: '$.model.providerID', id: '$.model.id' },
}

interface CellRow {
  minute: number
  session_id: string
  provider_id: string
  model_id: string
  messages: number
  input: number
  output: number
  reasoning: number
  cache_read: number
  cache_write: number
  cost: number
}

/** The session columns the usage read selects, from either generation's table (2.x titles may be null). */
type SessionRow = Pick<SessionV2Table, 'id' | 'title' | 'project_id' | 'cost' | 'tokens_input' | 'tokens_output' | 'tokens_reasoning' | 'tokens_cache_read' | 'tokens_cache_write'>

const FIGURES = { input: '$.tokens.input', output: '$.tokens.output', reasoning: '$.tokens.reasoning', cache_read: '$.tokens.cache.read', cache_write: '$.tokens.cache.write', cost: '$.cost' }

/**
 * The figures are extracted in a materialized step before grouping: otherwise the group-by's sorter
 * carries each message's whole JSON and the figures are parsed out of it behind the sort.
 */
function minutesSql(spec: UsageSpec, sessions: string, ids: boolean): string {
  const figures = Object.entries(FIGURES).map(([name, p]) => `json_extract(m.data, '${p}') AS ${name}`).join(', ')
  const sums = Object.keys(FIGURES).map((name) => `coalesce(sum(${name}), 0) AS ${name}`).join(', ')
  return `WITH steps AS MATERIALIZED (
      SELECT m.time_created / 60000 AS minute, m.session_id, json_extract(m.data, '${spec.model.provider}') AS provider_id,
        json_extract(m.data, '${spec.model.id}') AS model_id, ${figures}
      FROM ${spec.messages.table} m
      WHERE ${spec.messages.assistant} AND m.time_created >= 0 AND m.session_id IN (SELECT id FROM (${sessions}))
        ${ids ? 'AND m.session_id IN (SELECT value FROM json_each(?))' : ''}
    )
    SELECT minute, session_id, coalesce(provider_id, '') AS provider_id, coalesce(model_id, '') AS model_id, count(*) AS messages, ${sums}
    FROM steps GROUP BY 1, 2, 3, 4`
}

/**
 * A generation's usage from its assistant messages: each records the tokens and cost of the model
 * call it came from (one step per message in 1.18.33; in 2.x the step's own figures), with its time
 * and model, which the session's totals (the columns the list and the Bytes tab show) do not keep.
 */
export function createUsageRole(layout: GenerationLayout, storage: StorageLayout, stamps: string | null): UsageRole {
  const spec = layout.generation === 'v1' ? V1 : V2
  const table = layout.sessionTable
  const own = ownSessionsWhere(layout, storage, table)
  const sessions = `SELECT * FROM ${table}${own ? ` WHERE ${own}` : ''}`
  const all = minutesSql(spec, sessions, false)
  const some = minutesSql(spec, sessions, true)
  return {
    stamps,
    minutes(db, ids) {
      const rows = ids ? db.allSql<CellRow>(some, [JSON.stringify(ids)]) : db.allSql<CellRow>(all)
      return rows.map((r) => ({
        minute: r.minute,
        storage: spec.generation,
        sessionID: r.session_id,
        providerID: String(r.provider_id),
        modelID: String(r.model_id),
        messages: r.messages,
        tokens: { input: r.input, output: r.output, reasoning: r.reasoning, cacheRead: r.cache_read, cacheWrite: r.cache_write },
        cost: r.cost,
      }))
    },
    sessions(db) {
      const rows = db.allSql<SessionRow>(
        `SELECT id, title, project_id, cost, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write FROM (${sessions})`,
      )
      return rows.map((r) => ({
        storage: spec.generation,
        id: r.id,
        title: r.title ?? '',
        projectID: r.project_id,
        tokens: { input: r.tokens_input, output: r.tokens_output, reasoning: r.tokens_reasoning, cacheRead: r.tokens_cache_read, cacheWrite: r.tokens_cache_write },
        cost: r.cost,
      }))
    },
  }
}

import type { StorageGeneration, UsageCell, UsageSession } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { GenerationLayout, StorageLayout } from './probe.js'
import { ownSessionsWhere } from './experimental-rows.js'
import { readToken } from './session-totals.js'

/** One generation's usage reads: its assistant messages per local day, session and model, and its sessions' own totals. */
export interface UsageRole {
  /** Every session's cells, or (with `ids`) only these sessions'. */
  cells(db: SqliteDb, tzOffsetMinutes: number, ids?: readonly string[]): UsageCell[]
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
  day: number
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

interface SessionRow {
  id: string
  title: string | null
  project_id: string
  cost: number
  tokens_input: number
  tokens_output: number
  tokens_reasoning: number
  tokens_cache_read: number
  tokens_cache_write: number
}

const num = (path: string) => `coalesce(sum(json_extract(m.data, '${path}')), 0)`

function cellsSql(spec: UsageSpec, sessions: string, ids: boolean): string {
  return `SELECT (m.time_created + CAST(? AS INTEGER)) / 86400000 AS day, m.session_id,
      coalesce(json_extract(m.data, '${spec.model.provider}'), '') AS provider_id, coalesce(json_extract(m.data, '${spec.model.id}'), '') AS model_id,
      count(*) AS messages, ${num('$.tokens.input')} AS input, ${num('$.tokens.output')} AS output, ${num('$.tokens.reasoning')} AS reasoning,
      ${num('$.tokens.cache.read')} AS cache_read, ${num('$.tokens.cache.write')} AS cache_write, ${num('$.cost')} AS cost
    FROM ${spec.messages.table} m
    WHERE ${spec.messages.assistant} AND m.time_created >= 0 AND m.session_id IN (SELECT id FROM (${sessions}))
      ${ids ? 'AND m.session_id IN (SELECT value FROM json_each(?))' : ''}
    GROUP BY 1, 2, 3, 4`
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
  const all = cellsSql(spec, sessions, false)
  const some = cellsSql(spec, sessions, true)
  return {
    stamps,
    cells(db, tzOffsetMinutes, ids) {
      const rows = ids ? db.allSql<CellRow>(some, [tzOffsetMinutes * 60_000, JSON.stringify(ids)]) : db.allSql<CellRow>(all, [tzOffsetMinutes * 60_000])
      return rows.map((r) => ({
        day: r.day,
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

/** Every generation's usage cells and sessions, as read at one state of the file. */
export interface UsageSnapshot {
  cells: UsageCell[]
  sessions: UsageSession[]
}

export interface UsageReader {
  /** Inside the caller's read transaction; the same answer without reading a row while the file is unchanged. */
  read(db: SqliteDb, tzOffsetMinutes: number): UsageSnapshot
}

/** Offsets kept: a browser asks for one, a second device or tab rarely for another. */
const OFFSETS_KEPT = 4

type CellsBySession = Map<string, UsageCell[]>

const bySession = (cells: UsageCell[]): CellsBySession => {
  const out: CellsBySession = new Map()
  for (const c of cells) {
    const list = out.get(c.sessionID)
    if (list) list.push(c)
    else out.set(c.sessionID, [c])
  }
  return out
}

/**
 * Reading every assistant message takes a noticeable part of a second on a large file, so the cells
 * are kept per session and per offset while the file is unchanged (`data_version` plus this
 * connection's `total_changes()`, as the session totals are). After a change, a generation whose
 * stamps move with every write (1.x with an event log) reads again only the sessions whose stamps
 * moved; any other is read whole.
 */
export function createUsageReader(roles: readonly UsageRole[]): UsageReader {
  let token: string | null = null
  let sessions: UsageSession[] = []
  const stamps: (Map<string, string> | null)[] = roles.map(() => null)
  const kept = new Map<number, CellsBySession[]>()

  const refresh = (db: SqliteDb, i: number, role: UsageRole) => {
    const before = stamps[i] ?? null
    const now = role.stamps ? new Map(db.allSql<{ id: string; seq: number | null; time_updated: number }>(role.stamps).map((r) => [r.id, `${r.seq}:${r.time_updated}`])) : null
    stamps[i] = now
    const changed = before && now ? [...now].filter(([id, stamp]) => before.get(id) !== stamp).map(([id]) => id) : null
    const gone = before && now ? [...before.keys()].filter((id) => !now.has(id)) : []
    for (const [offset, perRole] of kept) {
      const cells = perRole[i]
      if (!changed || !cells) {
        perRole[i] = bySession(role.cells(db, offset))
        continue
      }
      for (const id of [...changed, ...gone]) cells.delete(id)
      if (changed.length > 0) for (const [id, list] of bySession(role.cells(db, offset, changed))) cells.set(id, list)
    }
  }

  return {
    read(db, tzOffsetMinutes) {
      const now = readToken(db)
      if (now !== token) {
        token = now
        sessions = roles.flatMap((r) => r.sessions(db))
        roles.forEach((role, i) => refresh(db, i, role))
      }
      let perRole = kept.get(tzOffsetMinutes)
      if (!perRole) {
        perRole = roles.map((r) => bySession(r.cells(db, tzOffsetMinutes)))
        if (kept.size >= OFFSETS_KEPT) kept.delete(kept.keys().next().value as number)
        kept.set(tzOffsetMinutes, perRole)
      }
      return { cells: perRole.flatMap((m) => [...m.values()].flat()), sessions }
    },
  }
}

import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { KNOWN_MIGRATIONS } from './known-migrations.js'

export interface GenerationLayout {
  generation: StorageGeneration
  /** Where this generation's sessions live: `session_v2`, or `session` (1.x, and 1.18's experimental 2.x rows). */
  sessionTable: 'session' | 'session_v2'
  /** 1.18's `/api/session` rows: 2.x-shaped messages on a 1.x `session` row. */
  experimental: boolean
}

export interface StorageLayout {
  generations: GenerationLayout[]
  tables: string[]
  columns: Record<string, string[]>
  migrations: { count: number; last: string | null; unknown: string[] }
  opencodeVersions: string[]
  eventLog: boolean
  kv: boolean
  blobTables: 'absent' | 'present'
  triggers: string[]
  attachedDatabases: number
  tablePrefix: string | null
  /** Loupe can read sessions and messages. */
  readable: boolean
  /** Loupe may write (prune): a known schema with nothing hidden (triggers, attachments, unknown migrations). */
  writable: boolean
  /** Why something is not supported, in words a user can act on. */
  problems: string[]
}

const REQUIRED: Record<string, readonly string[]> = {
  session: ['id', 'project_id', 'parent_id', 'title', 'directory', 'time_created', 'time_updated', 'time_archived'],
  session_v2: ['id', 'project_id', 'parent_id', 'title', 'directory', 'time_created', 'time_updated', 'time_archived'],
  message: ['id', 'session_id', 'time_created', 'data'],
  part: ['id', 'message_id', 'session_id', 'data'],
  session_message: ['id', 'session_id', 'type', 'seq', 'time_created', 'data'],
}
const PREFIXED = /^(\w+_)(session_v2|session_message|event_sequence)$/
/** Tables Loupe itself keeps inside OpenCode's file (prune receipts on 1.x): Loupe's own, never a schema change. */
export const LOUPE_OWNED_TABLE = /^loupe_/

/** Probe the schema once at open. Unknown shapes are reported, never guessed at. */
export function probeSchema(db: SqliteDb): StorageLayout {
  return db.read(() => {
    const master = db.allSql<{ type: string; name: string }>(`SELECT type, name FROM sqlite_master WHERE type IN ('table','trigger')`)
    const tables = master.filter((m) => m.type === 'table' && !LOUPE_OWNED_TABLE.test(m.name)).map((m) => m.name).sort()
    const has = new Set(tables)
    const columns: Record<string, string[]> = {}
    for (const table of tables) {
      columns[table] = db.allSql<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [table]).map((c) => c.name)
    }
    const problems: string[] = []
    const hasColumns = (table: string) => {
      const missing = (REQUIRED[table] ?? []).filter((c) => !columns[table]?.includes(c))
      if (missing.length) problems.push(`table ${table} lacks column(s) ${missing.join(', ')}`)
      return has.has(table) && missing.length === 0
    }
    const hasRows = (table: string) => db.getSql(`SELECT 1 FROM ${table} LIMIT 1`) !== undefined
    const generations = detectGenerations(has, hasColumns, hasRows)
    const prefix = tables.map((t) => PREFIXED.exec(t)?.[1]).find((p) => p !== undefined) ?? null
    if (prefix) problems.push(`tables carry the prefix "${prefix}", which Loupe does not support`)
    const migrationIds = has.has('migration')
      ? db.allSql<{ id: string }>(`SELECT id FROM migration ORDER BY id`).map((m) => m.id)
      : []
    const unknown = migrationIds.filter((id) => !KNOWN_MIGRATIONS.has(id))
    if (unknown.length) problems.push(`unknown OpenCode migration(s): ${unknown.slice(0, 5).join(', ')}`)
    const triggers = master.filter((m) => m.type === 'trigger').map((m) => m.name)
    if (triggers.length) problems.push(`the database has trigger(s) ${triggers.join(', ')}`)
    const attachedDatabases = db.allSql<{ name: string }>(`PRAGMA database_list`).length
    if (attachedDatabases > 1) problems.push('another database is attached')
    if (generations.length === 0 && !prefix) problems.push('no OpenCode session tables were recognized')
    const readable = generations.length > 0 && !prefix
    return {
      generations,
      tables,
      columns,
      migrations: { count: migrationIds.length, last: migrationIds.at(-1) ?? null, unknown },
      opencodeVersions: readVersions(db, generations),
      eventLog: has.has('event') && has.has('event_sequence'),
      kv: has.has('kv'),
      blobTables: has.has('blob') || has.has('blob_ref') ? 'present' : 'absent',
      triggers,
      attachedDatabases,
      tablePrefix: prefix,
      readable,
      writable: readable && unknown.length === 0 && triggers.length === 0 && attachedDatabases === 1,
      problems,
    }
  })
}

function detectGenerations(has: Set<string>, hasColumns: (t: string) => boolean, hasRows: (t: string) => boolean): GenerationLayout[] {
  const out: GenerationLayout[] = []
  const v1 = has.has('session') && hasColumns('session') && hasColumns('message') && hasColumns('part')
  if (v1) out.push({ generation: 'v1', sessionTable: 'session', experimental: false })
  if (has.has('session_v2')) {
    if (hasColumns('session_v2') && hasColumns('session_message')) {
      out.push({ generation: 'v2', sessionTable: 'session_v2', experimental: false })
    }
  } else if (v1 && has.has('session_message') && hasColumns('session_message') && hasRows('session_message')) {
    // 1.18 writes 2.x-shaped rows for sessions run through /api/session; those sessions are the
    // `session` rows that own session_message rows (and have no message/part rows). Every 1.18.33
    // file has the (normally empty) table, so only its rows mark this generation (§3).
    out.push({ generation: 'v2', sessionTable: 'session', experimental: true })
  }
  return out
}

function readVersions(db: SqliteDb, generations: GenerationLayout[]): string[] {
  const versions = new Set<string>()
  for (const table of new Set(generations.map((g) => g.sessionTable))) {
    for (const row of db.allSql<{ version: string }>(`SELECT DISTINCT version FROM ${table} LIMIT 50`)) versions.add(row.version)
  }
  return [...versions].sort()
}

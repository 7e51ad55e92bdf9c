import { COMPANION_METADATA_KEY, IMAGES_COMPANION, type OpenCodeV2DB } from '@loupe/domain'
import { sql } from 'kysely'
import { createQueryBuilder } from '../../lib/query-builder.js'
import type { SqliteDb } from '../../lib/sqlite.js'
import type { StorageLayout } from '../../store/probe.js'

/** A table that holds session rows: `session` (1.x, and 1.18's experimental 2.x rows) or `session_v2`. */
export type SessionTableName = 'session' | 'session_v2'

interface ProjectDirectoryTable {
  project_id: string
  directory: string
  time_created: number
}
type CompanionDB = OpenCodeV2DB & { project_directory: ProjectDirectoryTable }

const qb = createQueryBuilder<CompanionDB>()
const METADATA_PATH = `$."${COMPANION_METADATA_KEY}"`

/** One root session of a location, newest first, flagged when its metadata marks it the Images companion. */
export interface RootKey {
  id: string
  projectID: string
  timeCreated: number
  marked: boolean
  table: SessionTableName
}

/** The location a directory names in the opened database, or undefined when Loupe knows no such place. */
export interface KnownLocation {
  directory: string
  projectID: string
  /** A session in that directory (root preferred), to check an OpenCode server shares this database. */
  sessionID: string | null
}

/** The session tables of this layout that carry what the lookup needs; the rest are reported, never guessed at. */
export function companionTables(layout: StorageLayout): { tables: SessionTableName[]; problems: string[] } {
  const tables: SessionTableName[] = []
  const problems: string[] = []
  for (const table of new Set(layout.generations.map((g) => g.sessionTable))) {
    const columns = layout.columns[table] ?? []
    if (columns.includes('metadata')) tables.push(table)
    else problems.push(`table ${table} has no metadata column`)
  }
  return { tables, problems }
}

/**
 * Up to `limit` root, unarchived sessions of `directory`, newest by (time_created, id). The marker
 * test runs in SQL and tolerates malformed metadata (json_extract would raise on it).
 */
export function newestRoots(db: SqliteDb, table: SessionTableName, directory: string, limit: number): RootKey[] {
  const t = table as 'session_v2'
  const metadata = sql.ref(`${t}.metadata`)
  const marked = sql<number>`(CASE WHEN json_valid(${metadata}) AND json_type(${metadata}) = 'object'
    THEN coalesce(json_extract(${metadata}, ${METADATA_PATH}) = ${IMAGES_COMPANION}, 0) ELSE 0 END)`
  const rows = db.all(
    qb.selectFrom(t)
      .select([`${t}.id`, `${t}.project_id`, `${t}.time_created`, marked.as('marked')])
      .where(`${t}.directory`, '=', directory)
      .where(`${t}.parent_id`, 'is', null)
      .where(`${t}.time_archived`, 'is', null)
      .orderBy(`${t}.time_created`, 'desc')
      .orderBy(`${t}.id`, 'desc')
      .limit(limit),
  )
  return rows.map((r) => ({ id: r.id, projectID: r.project_id, timeCreated: r.time_created, marked: r.marked === 1, table }))
}

/**
 * Whether `directory` is a place OpenCode has worked in, per this database: a session's directory
 * (its project from the newest such session, roots first) or a project's worktree or directory.
 * The `global` project's worktree `/` is no location.
 */
export function findLocation(db: SqliteDb, layout: StorageLayout, tables: readonly SessionTableName[], directory: string): KnownLocation | undefined {
  let best: { id: string; project_id: string; root: number; time_created: number } | undefined
  for (const table of tables) {
    const t = table as 'session_v2'
    const row = db.get(
      qb.selectFrom(t)
        .select([`${t}.id`, `${t}.project_id`, `${t}.time_created`, sql<number>`(${sql.ref(`${t}.parent_id`)} IS NULL)`.as('root')])
        .where(`${t}.directory`, '=', directory)
        .orderBy('root', 'desc').orderBy(`${t}.time_created`, 'desc').orderBy(`${t}.id`, 'desc')
        .limit(1),
    )
    if (row && (!best || row.root > best.root || (row.root === best.root && row.time_created > best.time_created))) best = row
  }
  if (best) return { directory, projectID: best.project_id, sessionID: best.id }
  if (directory === '/') return undefined
  if (layout.columns.project_directory?.includes('directory')) {
    const row = db.get(qb.selectFrom('project_directory').select('project_id').where('directory', '=', directory).orderBy('time_created', 'desc').limit(1))
    if (row) return { directory, projectID: row.project_id, sessionID: null }
  }
  if (layout.columns.project?.includes('worktree')) {
    const row = db.get(qb.selectFrom('project').select('id').where('worktree', '=', directory).orderBy('time_created', 'desc').limit(1))
    if (row) return { directory, projectID: row.id, sessionID: null }
  }
  return undefined
}

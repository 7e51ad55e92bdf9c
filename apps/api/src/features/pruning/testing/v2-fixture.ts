import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { V1_MIGRATIONS, V2_MIGRATIONS } from '@loupe/domain'
import { MEDIA_TABLES, moveImagesToBlobs } from './media-blobs.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const SCHEMA_2X = path.resolve(here, '../../../../../../tools/opencode-schema/opencode-2x-schema.sql')

export interface V2Fixture {
  file: string
  /** The experimental 2.x sessions of the real fixture, now stored in session_v2. */
  sessions: string[]
}

export interface V2FixtureOptions {
  /** Copy the sessions' `session.next.*` event log too (default true). */
  events?: boolean
  /** Store each `data:` image as a `media:<sha256>` ref with blob tables (default false). */
  media?: boolean
  /** Drop reasoning ids, as 2.0.26 stores reasoning (default false). */
  reasoningWithoutIds?: boolean
  /** Extra DDL run after the schema, e.g. a `kv` CHECK that makes receipt inserts fail. */
  extraSql?: string
  kvSql?: string
}

/**
 * A fresh OpenCode 2.x database (tools/opencode-schema/opencode-2x-schema.sql, every known migration
 * recorded) holding the real rows 1.18.33's experimental 2.x engine wrote in the real fixture: the
 * same `session_message` data, moved under `session_v2` as a 2.x import keeps ids and seqs.
 */
export function buildV2Fixture(realDb: string, file: string, options: V2FixtureOptions = {}): V2Fixture {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  let schema = fs.readFileSync(SCHEMA_2X, 'utf8')
  if (options.kvSql) schema = schema.replace(/CREATE TABLE `kv` \([\s\S]*?\);/, options.kvSql)
  db.exec(schema)
  if (options.media) db.exec(MEDIA_TABLES)
  if (options.extraSql) db.exec(options.extraSql)
  const migrations = db.prepare(`INSERT INTO migration (id, time_completed) VALUES (?, 1)`)
  for (const id of [...V1_MIGRATIONS, ...V2_MIGRATIONS.slice(0, 12)]) migrations.run(id)
  db.exec(`ATTACH DATABASE '${realDb.replace(/'/g, "''")}' AS real`)
  const sessions = db.prepare(`SELECT DISTINCT session_id FROM real.session_message`).pluck().all() as string[]
  const list = sessions.map(() => '?').join(',')
  db.prepare(`INSERT INTO project (id, worktree, vcs, name, time_created, time_updated, sandboxes)
              SELECT id, worktree, vcs, name, time_created, time_updated, sandboxes FROM real.project`).run()
  db.prepare(`INSERT INTO session_v2 (id, project_id, slug, directory, path, title, version, cost, agent, model, time_created, time_updated)
              SELECT id, project_id, slug, directory, path, title, version, cost, agent, model, time_created, time_updated
                FROM real.session WHERE id IN (${list})`).run(...sessions)
  db.prepare(`INSERT INTO session_message SELECT * FROM real.session_message`).run()
  db.prepare(`INSERT INTO event_sequence SELECT * FROM real.event_sequence WHERE aggregate_id IN (${list})`).run(...sessions)
  if (options.events !== false) {
    db.prepare(`INSERT INTO event (id, aggregate_id, seq, type, data, created)
                SELECT id, aggregate_id, seq, type, data, coalesce(json_extract(data, '$.timestamp'), 0) FROM real.event WHERE aggregate_id IN (${list})`).run(...sessions)
  }
  db.exec(`DETACH DATABASE real`)
  if (options.reasoningWithoutIds) {
    db.exec(`UPDATE session_message SET data = json_set(data, '$.content', (
      SELECT json_group_array(CASE WHEN json_extract(c.value, '$.type') = 'reasoning' THEN json_remove(c.value, '$.id') ELSE json(c.value) END)
        FROM json_each(session_message.data, '$.content') c)) WHERE type = 'assistant'`)
  }
  if (options.media) moveImagesToBlobs(db, 'v2')
  db.close()
  return { file, sessions }
}

import type Database from 'better-sqlite3'
import { V1_MIGRATIONS } from '@loupe/domain'
import type { SessionRow, SessionRows } from './demo-rows.js'
import type { DemoWorld } from './demo-plan.js'
import type { Random } from './random.js'

export interface DemoCounts {
  sessions: number
  messages: number
  parts: number
  events: number
}

const SESSION_COLUMNS = [
  'id', 'project_id', 'parent_id', 'slug', 'directory', 'path', 'title', 'version', 'summary_additions', 'summary_deletions', 'summary_files',
  'metadata', 'cost', 'tokens_input', 'tokens_output', 'tokens_reasoning', 'tokens_cache_read', 'tokens_cache_write', 'revert', 'permission',
  'agent', 'model', 'time_created', 'time_updated', 'time_archived',
] as const satisfies readonly (keyof SessionRow)[]

const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`

/** Prepared inserts for everything a session writes; rows arrive one finished session at a time. */
export function createDemoSink(db: Database.Database, events: boolean) {
  const session = db.prepare(insertSql('session', SESSION_COLUMNS))
  // Positional parameters: the hot inserts bind faster than with named ones.
  const message = db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)')
  const part = db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)')
  const sequence = db.prepare('INSERT INTO event_sequence (aggregate_id, seq, owner_id) VALUES (?, ?, NULL)')
  const event = db.prepare('INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, ?, ?)')
  const todo = db.prepare(insertSql('todo', ['session_id', 'content', 'status', 'priority', 'position', 'time_created', 'time_updated']))
  const counts: DemoCounts = { sessions: 0, messages: 0, parts: 0, events: 0 }
  return {
    counts,
    write(rows: SessionRows): void {
      session.run(rows.session)
      for (const m of rows.messages) message.run(m.id, m.session_id, m.time_created, m.time_updated, m.data)
      for (const p of rows.parts) part.run(p.id, p.message_id, p.session_id, p.time_created, p.time_updated, p.data)
      // event.aggregate_id references event_sequence, so the sequence row goes first.
      if (events && rows.lastSeq >= 0) {
        sequence.run(rows.session.id, rows.lastSeq)
        for (const e of rows.events) event.run(e.id, e.aggregate_id, e.seq, e.type, e.data)
      }
      for (const t of rows.todos) todo.run(t)
      counts.sessions++
      counts.messages += rows.messages.length
      counts.parts += rows.parts.length
      counts.events += rows.events.length
    },
  }
}

/** What OpenCode writes on its first run: the 38 migration rows, then one row per project it opens. */
export function writeBootstrap(db: Database.Database, world: DemoWorld, random: Random, firstRunAt: number): void {
  const migration = db.prepare('INSERT INTO migration (id, time_completed) VALUES (?, ?)')
  let t = firstRunAt
  for (const id of V1_MIGRATIONS) migration.run(id, (t += random.int(0, 1)))
  const project = db.prepare(
    `INSERT INTO project (id, worktree, vcs, name, icon_url, icon_url_override, icon_color, time_created, time_updated, time_initialized, sandboxes, commands)
     VALUES (?, ?, ?, NULL, NULL, NULL, NULL, ?, ?, NULL, '[]', NULL)`,
  )
  const directory = db.prepare('INSERT INTO project_directory (project_id, directory, type, strategy, time_created) VALUES (?, ?, NULL, NULL, ?)')
  project.run('global', '/', null, t + 40, t + 40)
  for (const p of world.projects) {
    const at = t + random.int(100, 5_000)
    project.run(p.ref.id, p.ref.worktree, 'git', at, at)
    directory.run(p.ref.id, p.ref.worktree, at + random.int(1, 9))
  }
}

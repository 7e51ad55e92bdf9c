import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { Kysely, Migrator, SqliteDialect } from 'kysely'
import { applyConnectionMemory } from '../lib/connection-memory.js'
import { wrapSqlite, type SqliteDb } from '../lib/sqlite.js'
import { loupeMigrations } from './migrations/index.js'

/** Open (creating if needed) Loupe's own state file and bring it to the latest migration. */
export async function openLoupeDb(dataDir: string): Promise<SqliteDb> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = path.join(dataDir, 'loupe.db')
  const raw = new Database(file)
  raw.pragma('journal_mode = WAL')
  raw.pragma('busy_timeout = 5000')
  raw.pragma('foreign_keys = ON')
  fs.chmodSync(file, 0o600)
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) })
  const migrator = new Migrator({ db: kysely, provider: { getMigrations: async () => loupeMigrations } })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    raw.close()
    throw new Error(`Loupe's state file ${file} could not be migrated (${failed?.migrationName ?? 'unknown'}): ${String(error)}`)
  }
  const db = wrapSqlite(raw, file, 5000)
  applyConnectionMemory(db, 'loupe')
  return db
}

import type { Selectable } from 'kysely'
import type { SqliteDb } from '../lib/sqlite.js'
import { createQueryBuilder } from '../lib/query-builder.js'
import type { LoupeDB, ShareTable } from '../loupe-db/loupe-db.tables.js'

const qb = createQueryBuilder<LoupeDB>()

export type ShareRow = Selectable<ShareTable>

export function insertShare(db: SqliteDb, row: ShareRow): void {
  db.run(qb.insertInto('share').values(row))
}

export function findShareByHash(db: SqliteDb, tokenHash: string): ShareRow | undefined {
  return db.get(qb.selectFrom('share').selectAll().where('token_hash', '=', tokenHash))
}

export function findShare(db: SqliteDb, id: string): ShareRow | undefined {
  return db.get(qb.selectFrom('share').selectAll().where('id', '=', id))
}

export function listShares(db: SqliteDb, sessionID: string | undefined, limit: number): ShareRow[] {
  let q = qb.selectFrom('share').selectAll()
  if (sessionID) q = q.where('session_id', '=', sessionID)
  return db.all(q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit))
}

/** Revoke once; a second revoke keeps the first time. */
export function revokeShare(db: SqliteDb, id: string, now: number): number {
  return db.run(qb.updateTable('share').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null))
}

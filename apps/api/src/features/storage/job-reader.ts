import { applyConnectionMemory } from '../../lib/connection-memory.js'
import { openSqlite, type SqliteDb } from '../../lib/sqlite.js'
import type { StorageLayout } from '../../store/probe.js'
import { createStores, type OpenCodeStores } from '../../store/store.js'

/**
 * A storage job's own read-only connection in its worker thread, with stores built from the
 * server's probe of the file (not probed again), so the thread reads it as the server does.
 */
export function openJobReader(path: string, layout: StorageLayout): { db: SqliteDb; stores: OpenCodeStores } {
  const db = openSqlite(path, { readonly: true, fileMustExist: true, busyTimeoutMs: 2000 })
  applyConnectionMemory(db, 'storageJob')
  return { db, stores: createStores(layout) }
}

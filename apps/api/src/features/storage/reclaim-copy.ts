import { openSqlite, type SqliteDb } from '../../lib/sqlite.js'
import { countRows, listTables, readFileFacts } from '../../store/storage-doctor.store.js'
import { syncFile } from './reclaim-files.js'

export type CopyPhase = 'copy' | 'verify'

/** Why a written copy was not accepted; the copy is then removed and the original left as it was. */
export class CopyRejected extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CopyRejected'
  }
}

const schemaOf = (db: SqliteDb) =>
  JSON.stringify(db.allSql(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`))

function countAll(db: SqliteDb): Record<string, number> {
  return db.read(() => Object.fromEntries(listTables(db).map((t) => [t, countRows(db, t)])))
}

/**
 * The copy must be the same database: integrity ok, the same schema text, row counts per table,
 * `user_version`, `application_id`, page size and auto_vacuum; then it is put in WAL mode, as
 * OpenCode keeps its file, and synced to disk (VACUUM INTO itself never fsyncs).
 */
export function verifyCopy(source: SqliteDb, target: string): Record<string, number> {
  const copy = openSqlite(target, { fileMustExist: true, busyTimeoutMs: 1000 })
  try {
    const integrity = copy.pluckSql<string>('PRAGMA integrity_check')
    if (integrity.length !== 1 || integrity[0] !== 'ok') throw new CopyRejected(`the copy failed integrity_check: ${integrity.slice(0, 3).join('; ')}`)
    if (schemaOf(copy) !== schemaOf(source)) throw new CopyRejected('the copy has a different schema')
    const want = readFileFacts(source)
    const got = readFileFacts(copy)
    for (const key of ['userVersion', 'applicationId', 'pageSize'] as const) {
      if (want[key] !== got[key]) throw new CopyRejected(`the copy has ${key} ${got[key]}, the original ${want[key]}`)
    }
    const autoVacuum = (db: SqliteDb) => Number(db.raw.pragma('auto_vacuum', { simple: true }))
    if (autoVacuum(copy) !== autoVacuum(source)) throw new CopyRejected('the copy has a different auto_vacuum')
    const counts = countAll(source)
    const copied = countAll(copy)
    for (const [table, n] of Object.entries(counts)) {
      if (copied[table] !== n) throw new CopyRejected(`table ${table} has ${copied[table] ?? 0} rows in the copy, ${n} in the original (it changed during the copy?)`)
    }
    if (want.journalMode === 'wal' && String(copy.raw.pragma('journal_mode = WAL', { simple: true })).toLowerCase() !== 'wal') {
      throw new CopyRejected('the copy could not be put in WAL mode')
    }
    return counts
  } finally {
    copy.close()
    syncFile(target)
  }
}

/** `VACUUM INTO` a fresh file beside the database, then verify it. Throws CopyRejected or a SQLite error. */
export function writeVerifiedCopy(sourcePath: string, target: string, onPhase: (p: CopyPhase) => void): Record<string, number> {
  const source = openSqlite(sourcePath, { fileMustExist: true, busyTimeoutMs: 5000 })
  try {
    onPhase('copy')
    source.raw.prepare('VACUUM INTO ?').run(target)
    onPhase('verify')
    return verifyCopy(source, target)
  } finally {
    source.close()
  }
}

/** Out of space: ENOSPC gives SQLITE_FULL; a file-size limit (EFBIG) surfaces as a failed write. */
export const isDiskFull = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE' || code === 'ENOSPC' || code === 'EFBIG'
}

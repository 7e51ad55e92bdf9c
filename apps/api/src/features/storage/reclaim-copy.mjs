// The compacted copy of a reclaim: `VACUUM INTO` a fresh file beside the database, then verify it.
// Plain JS so the copy's worker thread starts without a TypeScript loader (that start-up is most
// of a small reclaim's time); its types are in reclaim-copy.d.mts.
import fs from 'node:fs'
import Database from 'better-sqlite3'

/** Why a written copy was not accepted; the copy is then removed and the original left as it was. */
export class CopyRejected extends Error {
  constructor(message) {
    super(message)
    this.name = 'CopyRejected'
  }
}

const tablesOf = (db) =>
  db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`).pluck().all()
const schemaOf = (db) =>
  JSON.stringify(db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all())
const quote = (name) => `"${name.replaceAll('"', '""')}"`
const countAll = (db) => db.transaction(() => Object.fromEntries(tablesOf(db).map((t) => [t, db.prepare(`SELECT count(*) FROM ${quote(t)}`).pluck().get()])))()
const HEADER = ['user_version', 'application_id', 'page_size', 'auto_vacuum']

function syncFile(file) {
  const fd = fs.openSync(file, 'r+')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * The copy must be the same database: integrity ok, the same schema text, row counts per table,
 * `user_version`, `application_id`, page size and auto_vacuum; then it is put in WAL mode, as
 * OpenCode keeps its file, and synced to disk (VACUUM INTO itself never fsyncs).
 */
export function verifyCopy(source, target, cacheKiB) {
  const copy = new Database(target, { fileMustExist: true })
  try {
    if (cacheKiB) copy.pragma(`cache_size = -${cacheKiB}`)
    const integrity = copy.pragma('integrity_check', { simple: false }).map((r) => r.integrity_check)
    if (integrity.length !== 1 || integrity[0] !== 'ok') throw new CopyRejected(`the copy failed integrity_check: ${integrity.slice(0, 3).join('; ')}`)
    if (schemaOf(copy) !== schemaOf(source)) throw new CopyRejected('the copy has a different schema')
    for (const pragma of HEADER) {
      const want = source.pragma(pragma, { simple: true })
      const got = copy.pragma(pragma, { simple: true })
      if (want !== got) throw new CopyRejected(`the copy has ${pragma} ${got}, the original ${want}`)
    }
    const counts = countAll(source)
    const copied = countAll(copy)
    for (const [table, n] of Object.entries(counts)) {
      if (copied[table] !== n) throw new CopyRejected(`table ${table} has ${copied[table] ?? 0} rows in the copy, ${n} in the original (it changed during the copy?)`)
    }
    const wal = String(source.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal'
    if (wal && String(copy.pragma('journal_mode = WAL', { simple: true })).toLowerCase() !== 'wal') throw new CopyRejected('the copy could not be put in WAL mode')
    return counts
  } finally {
    copy.close()
    syncFile(target)
  }
}

/**
 * `VACUUM INTO` then verify. Throws CopyRejected or a SQLite error. `cacheKiB` sizes both
 * connections' page caches: each reads every page once, and a thread's cache, once filled, stays in
 * the process's memory after the thread ends (glibc keeps it for the next thread).
 */
export function writeVerifiedCopy(sourcePath, target, onPhase, cacheKiB) {
  const source = new Database(sourcePath, { fileMustExist: true })
  try {
    source.pragma('busy_timeout = 5000')
    if (cacheKiB) source.pragma(`cache_size = -${cacheKiB}`)
    onPhase('copy')
    source.prepare('VACUUM INTO ?').run(target)
    onPhase('verify')
    return verifyCopy(source, target, cacheKiB)
  } finally {
    source.close()
  }
}

/** Out of space: ENOSPC gives SQLITE_FULL; a file-size limit (EFBIG) surfaces as a failed write. */
export function isDiskFull(error) {
  const code = error?.code
  return code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE' || code === 'ENOSPC' || code === 'EFBIG'
}

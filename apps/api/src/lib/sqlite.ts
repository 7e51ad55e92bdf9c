import Database from 'better-sqlite3'
import { AppError } from '../errors.js'
import type { Compilable } from 'kysely'

export type WriteOutcome<T> = { ok: true; value: T } | { ok: false; busy: true }

/**
 * A better-sqlite3 handle with a statement cache. Kysely only builds queries here (compile-only);
 * they run synchronously, so a transaction never spans an `await`.
 */
export interface SqliteDb {
  readonly raw: Database.Database
  readonly path: string
  all<R>(query: Compilable<R>): R[]
  get<R>(query: Compilable<R>): R | undefined
  run(query: Compilable<unknown>): number
  /** Raw SQL for what the builder cannot say (PRAGMA, json_each tables). Never with client text. */
  allSql<R>(sql: string, params?: readonly unknown[]): R[]
  getSql<R>(sql: string, params?: readonly unknown[]): R | undefined
  runSql(sql: string, params?: readonly unknown[]): number
  /** The first column of every row: for thousands of ids, no row objects are built. */
  pluckSql<R>(sql: string, params?: readonly unknown[]): R[]
  /** Every row as an array of its columns. */
  rowsSql<R extends unknown[]>(sql: string, params?: readonly unknown[]): R[]
  /** A group of reads in one deferred transaction: one consistent snapshot. */
  read<T>(fn: () => T): T
  /** `BEGIN IMMEDIATE … COMMIT`; SQLITE_BUSY at any point rolls back and answers `busy`. */
  write<T>(fn: () => T, busyTimeoutMs?: number): WriteOutcome<T>
  close(): void
}

export interface OpenOptions {
  readonly?: boolean
  fileMustExist?: boolean
  busyTimeoutMs?: number
}

export const isBusyError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

export function openSqlite(path: string, options: OpenOptions = {}): SqliteDb {
  const raw = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.fileMustExist ?? false })
  const readBusyMs = options.busyTimeoutMs ?? 5000
  raw.pragma(`busy_timeout = ${readBusyMs}`)
  return wrapSqlite(raw, path, readBusyMs)
}

export function wrapSqlite(raw: Database.Database, path: string, readBusyMs: number): SqliteDb {
  // One cache per result shape: pluck() and raw() change the statement they are called on.
  const caches = { object: new Map<string, Database.Statement>(), pluck: new Map<string, Database.Statement>(), rows: new Map<string, Database.Statement>() }
  const prepare = (sql: string, shape: keyof typeof caches = 'object') => {
    const cache = caches[shape]
    let stmt = cache.get(sql)
    if (!stmt) {
      stmt = raw.prepare(sql)
      if (shape === 'pluck') stmt.pluck()
      if (shape === 'rows') stmt.raw()
      if (cache.size > 500) cache.clear()
      cache.set(sql, stmt)
    }
    return stmt
  }
  const compiled = (query: Compilable<unknown>) => query.compile()
  const allSql = <R>(sql: string, params: readonly unknown[] = []) => prepare(sql).all(...params) as R[]
  const getSql = <R>(sql: string, params: readonly unknown[] = []) => prepare(sql).get(...params) as R | undefined
  const runSql = (sql: string, params: readonly unknown[] = []) => prepare(sql).run(...params).changes
  const pluckSql = <R>(sql: string, params: readonly unknown[] = []) => prepare(sql, 'pluck').all(...params) as R[]
  const rowsSql = <R extends unknown[]>(sql: string, params: readonly unknown[] = []) => prepare(sql, 'rows').all(...params) as R[]

  return {
    raw,
    path,
    all: <R>(query: Compilable<R>) => {
      const { sql, parameters } = compiled(query)
      return allSql<R>(sql, parameters)
    },
    get: <R>(query: Compilable<R>) => {
      const { sql, parameters } = compiled(query)
      return getSql<R>(sql, parameters)
    },
    run: (query) => {
      const { sql, parameters } = compiled(query)
      return runSql(sql, parameters)
    },
    allSql,
    getSql,
    runSql,
    pluckSql,
    rowsSql,
    read: <T>(fn: () => T): T => {
      if (raw.inTransaction) return fn()
      try {
        return raw.transaction(fn).deferred()
      } catch (error) {
        if (isBusyError(error)) {
          throw new AppError('maintenance_required', 'The database is locked by another process; try again in a moment.', { cause: error })
        }
        throw error
      }
    },
    write: <T>(fn: () => T, busyTimeoutMs = 750): WriteOutcome<T> => {
      if (raw.inTransaction) throw new Error('write() inside an open transaction')
      raw.pragma(`busy_timeout = ${busyTimeoutMs}`)
      try {
        return { ok: true, value: raw.transaction(fn).immediate() }
      } catch (error) {
        if (isBusyError(error)) return { ok: false, busy: true }
        throw error
      } finally {
        raw.pragma(`busy_timeout = ${readBusyMs}`)
      }
    },
    close: () => {
      for (const cache of Object.values(caches)) cache.clear()
      if (raw.open) raw.close()
    },
  }
}

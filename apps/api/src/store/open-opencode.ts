import fs from 'node:fs'
import { AppError } from '../errors.js'
import { applyConnectionMemory } from '../lib/connection-memory.js'
import { isBusyError, openSqlite, type SqliteDb } from '../lib/sqlite.js'
import { probeSchema, type StorageLayout } from './probe.js'
import { createStores, type OpenCodeStores } from './store.js'

export interface FileIdentity {
  dev: number
  ino: number
}

/** The OpenCode database Loupe opened, probed once; every feature reads it through `stores`. */
export interface OpenCodeHandle {
  db: SqliteDb
  path: string
  identity: FileIdentity
  layout: StorageLayout
  stores: OpenCodeStores
  readonly: boolean
  /** True while the file at `path` is still the one opened (device + inode). */
  isSameFile(): boolean
  fileSizes(): { db: number; wal: number }
  /**
   * Close the connection and open the file at `path` again (after reclaim swapped a compacted copy
   * in): every field is replaced on this same object, so holders of the handle see the new file.
   */
  reopen(): void
}

const statIdentity = (path: string): FileIdentity | undefined => {
  try {
    const st = fs.statSync(path)
    return { dev: st.dev, ino: st.ino }
  } catch {
    return undefined
  }
}
const sizeOf = (path: string) => {
  try {
    return fs.statSync(path).size
  } catch {
    return 0
  }
}

const lockedError = (path: string, cause: unknown) =>
  new AppError('maintenance_required', `${path} is locked by another process; try again when it is idle.`, { cause })

export interface OpenOpenCodeOptions {
  readBusyMs?: number
  /** Open the file read-only even where Loupe may write it (`loupe mcp`: no tool writes). */
  readonly?: boolean
}

function openFields(path: string, options: OpenOpenCodeOptions): Omit<OpenCodeHandle, 'reopen'> {
  if (!fs.existsSync(path)) throw new AppError('unavailable', `No OpenCode database at ${path}. Pass --db with the path to opencode.db.`)
  const real = fs.realpathSync(path)
  let readonly = options.readonly ?? false
  try {
    fs.accessSync(real, fs.constants.W_OK)
  } catch {
    readonly = true
  }
  let db: SqliteDb
  try {
    db = openSqlite(real, { fileMustExist: true, readonly, busyTimeoutMs: options.readBusyMs ?? 2000 })
    db.raw.pragma('foreign_keys = ON')
    applyConnectionMemory(db, 'opencode')
    if (!readonly) {
      db.raw.pragma('secure_delete = ON')
      db.raw.pragma('synchronous = NORMAL')
      if (String(db.raw.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') {
        try {
          db.raw.pragma('journal_mode = WAL')
        } catch {
          // Another process holds the file; OpenCode converts it to WAL on its next open anyway.
        }
      }
    }
  } catch (error) {
    if (isBusyError(error)) throw lockedError(real, error)
    throw new AppError('unavailable', `Cannot open ${real} as SQLite: ${(error as Error).message}`, { cause: error })
  }
  let layout: StorageLayout
  try {
    layout = probeSchema(db)
  } catch (error) {
    db.close()
    if (error instanceof AppError && error.code === 'maintenance_required') throw lockedError(real, error)
    throw new AppError('unavailable', `Cannot read ${real}: ${(error as Error).message}`, { cause: error })
  }
  const identity = statIdentity(real) ?? { dev: 0, ino: 0 }
  return {
    db,
    path: real,
    identity,
    layout,
    stores: createStores(layout),
    readonly: readonly || !layout.writable,
    isSameFile: () => {
      const now = statIdentity(real)
      return now !== undefined && now.dev === identity.dev && now.ino === identity.ino
    },
    fileSizes: () => ({ db: sizeOf(real), wal: sizeOf(`${real}-wal`) }),
  }
}

/**
 * Open OpenCode's database as OpenCode does (WAL, busy_timeout, foreign keys), plus
 * `secure_delete` so bytes Loupe deletes do not linger in free pages.
 */
export function openOpenCode(path: string, options: OpenOpenCodeOptions = {}): OpenCodeHandle {
  const handle: OpenCodeHandle = {
    ...openFields(path, options),
    reopen: () => {
      handle.db.close()
      Object.assign(handle, openFields(handle.path, options))
    },
  }
  return handle
}

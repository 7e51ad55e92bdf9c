import fs from 'node:fs'
import path from 'node:path'

/** A backup's stamp: UTC, to the millisecond (`20261201T224500123Z`). Clients name a backup by it, never by path. */
export const BACKUP_STAMP = /^\d{8}T\d{9}Z$/
const SIDECARS = ['', '-wal', '-shm', '-journal']

export const stampOf = (at: number) => new Date(at).toISOString().replace(/[-:.]/g, '')
export const backupPathFor = (db: string, stamp: string) => `${db}.backup-${stamp}`
/** The compacted copy is written beside the database, so the swap is one rename on one file system. */
export const copyPathFor = (db: string, stamp: string) => `${db}.reclaim-${stamp}.tmp`

export interface BackupFile {
  stamp: string
  bytes: number
}

/** Dated backups earlier reclaims kept beside the database, newest first. */
export function listBackups(db: string): BackupFile[] {
  const prefix = `${path.basename(db)}.backup-`
  let names: string[]
  try {
    names = fs.readdirSync(path.dirname(db))
  } catch {
    return []
  }
  return names
    .filter((n) => n.startsWith(prefix) && BACKUP_STAMP.test(n.slice(prefix.length)))
    .map((n) => ({ stamp: n.slice(prefix.length), bytes: fs.statSync(path.join(path.dirname(db), n)).size }))
    .sort((a, b) => b.stamp.localeCompare(a.stamp))
}

/** Remove a file and any SQLite sidecars of it; missing ones are fine. */
export function removeWithSidecars(file: string): void {
  for (const suffix of SIDECARS) fs.rmSync(file + suffix, { force: true })
}

/** Copies a killed reclaim left behind: never the database, only `*.reclaim-*.tmp`. */
export function removeStaleCopies(db: string): number {
  const prefix = `${path.basename(db)}.reclaim-`
  let removed = 0
  for (const name of fs.readdirSync(path.dirname(db))) {
    if (name.startsWith(prefix) && /\.tmp(-wal|-shm|-journal)?$/.test(name)) {
      fs.rmSync(path.join(path.dirname(db), name), { force: true })
      removed += 1
    }
  }
  return removed
}

/** Make a rename or link durable: fsync the directory entry. */
export function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

export function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

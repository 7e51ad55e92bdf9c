import fs from 'node:fs'
import path from 'node:path'
import { describeHolders, readFileHolders } from '../../opencode/file-holders.js'
import type { OpenCodeHandle } from '../../store/open-opencode.js'
import { backupPathFor, removeWithSidecars, syncDir } from './reclaim-files.js'

/** What the server's connection saw when the copy began: any commit since makes the copy stale. */
export interface SourceMark {
  dataVersion: number
  changes: number
}

export const markSource = (opencode: OpenCodeHandle): SourceMark => ({
  dataVersion: Number(opencode.db.raw.pragma('data_version', { simple: true })),
  changes: Number(opencode.db.getSql<{ n: number }>('SELECT total_changes() AS n')?.n ?? 0),
})

export type SwapOutcome =
  | { ok: true; backup: string | null }
  | { ok: false; reason: 'maintenance_required' | 'replaced' | 'changed'; detail: string }

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0)

/**
 * Put the verified copy in place of the database. The old file is hard-linked to a dated backup
 * name first, then the copy is renamed over the path (one atomic rename), so a kill at any moment
 * leaves the path naming either the old file or the new one, each whole. Before that the WAL is
 * emptied and the connection closed: a WAL left beside the new file would be replayed into it.
 * The handle is reopened on whatever file the path names afterwards.
 */
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

export function swapInCopy(opencode: OpenCodeHandle, copy: string, stamp: string, mark: SourceMark, keepBackup: boolean): SwapOutcome {
  if (!opencode.isSameFile()) return { ok: false, reason: 'replaced', detail: 'The database file was replaced while the copy was written; nothing was swapped.' }
  const holders = readFileHolders(opencode.path)
  if (holders === null) return { ok: false, reason: 'maintenance_required', detail: 'Loupe cannot tell whether another process opened the database during the copy; nothing was swapped.' }
  if (holders.length > 0) return { ok: false, reason: 'maintenance_required', detail: `${capitalize(describeHolders(holders))} opened the database during the copy; nothing was swapped.` }
  const now = markSource(opencode)
  if (now.dataVersion !== mark.dataVersion || now.changes !== mark.changes) {
    return { ok: false, reason: 'changed', detail: 'The database changed while the copy was written; nothing was swapped. Reclaim again.' }
  }
  const [checkpoint] = opencode.db.raw.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>
  if (!checkpoint || checkpoint.busy !== 0) return { ok: false, reason: 'maintenance_required', detail: 'Another connection is reading the database; nothing was swapped.' }
  const file = opencode.path
  const backup = backupPathFor(file, stamp)
  opencode.db.close()
  try {
    if (sizeOf(`${file}-wal`) > 0) return { ok: false, reason: 'maintenance_required', detail: 'The write-ahead log could not be emptied; nothing was swapped.' }
    fs.linkSync(file, backup)
    fs.renameSync(copy, file)
    syncDir(path.dirname(file))
    // Both belong to the old file, which no process has open.
    fs.rmSync(`${file}-wal`, { force: true })
    fs.rmSync(`${file}-shm`, { force: true })
  } finally {
    opencode.reopen()
  }
  if (!keepBackup) removeWithSidecars(backup)
  return { ok: true, backup: keepBackup ? backup : null }
}

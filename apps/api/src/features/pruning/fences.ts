import { messageContent, type NativeMessage, type PruneBlock } from '@loupe/domain'
import { collectMediaRefs } from '../../store/media-blob.js'
import type { OpenCodeHandle } from '../../store/open-opencode.js'
import type { PruneStore, SessionFenceRow } from '../../store/prune.store.js'

const LOUPE_TABLE = /^loupe_/
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i])

/**
 * Inside the write transaction, before anything else: is this still the file Loupe opened, with
 * the schema it probed? A replaced file is `unavailable`; a changed schema (an OpenCode upgrade
 * ran meanwhile, a trigger appeared, a database was attached) is `unsupported_storage`.
 */
export function checkWriteTarget(opencode: OpenCodeHandle, store: PruneStore): PruneBlock | undefined {
  const { db, layout } = opencode
  if (!opencode.isSameFile()) {
    return { reason: 'unavailable', detail: 'The database file was replaced since Loupe opened it; restart Loupe.' }
  }
  if (!layout.writable) {
    return { reason: 'unsupported_storage', detail: `Loupe does not write to this database: ${layout.problems.join('; ') || 'unknown schema'}.` }
  }
  if (opencode.readonly) return { reason: 'unavailable', detail: 'Loupe cannot write to this file (permissions).' }
  // Any schema change by any connection bumps schema_version: the full comparison runs only then.
  const version = Number(db.raw.pragma('schema_version', { simple: true }))
  if (version === store.schema.checkedVersion) return undefined
  const master = db.allSql<{ type: string; name: string }>(`SELECT type, name FROM sqlite_master WHERE type IN ('table', 'trigger')`)
  const tables = master.filter((m) => m.type === 'table' && !LOUPE_TABLE.test(m.name)).map((m) => m.name)
  const changed =
    master.some((m) => m.type === 'trigger') ||
    db.allSql<{ name: string }>(`PRAGMA database_list`).some((d) => d.name !== 'main' && d.name !== 'temp') ||
    // The connection's temp schema holds only Loupe's own scratch tables (the session totals), which shadow nothing of OpenCode's.
    db.allSql<{ tbl_name: string }>(`SELECT tbl_name FROM sqlite_temp_master`).some((m) => !LOUPE_TABLE.test(m.tbl_name)) ||
    !sameSet(tables, layout.tables.filter((t) => !LOUPE_TABLE.test(t))) ||
    // Every probed table's columns, not only this generation's: the version checked here is shared by
    // both generations' writes, and receipts (kv) and media (blob, blob_ref) are written by both.
    [...new Set([...store.tables, ...Object.keys(layout.columns)])].some((t) =>
      !sameSet(db.allSql<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [t]).map((c) => c.name), layout.columns[t] ?? []))
  if (changed) return { reason: 'unsupported_storage', detail: 'The database schema changed since Loupe opened it; restart Loupe.' }
  store.schema.checkedVersion = version
  return undefined
}

/**
 * The storage fences of one session (opencode-storage.md §10.2): a running, compacting or reverted
 * session is `maintenance_required` (try again later); a log owned remotely or a session bound to a
 * workspace is `unsupported_storage` (a local edit would diverge from its replica), and so is a session
 * stored in both generations (one copy pruned would leave the content in the other).
 */
export function fenceSession(row: SessionFenceRow | undefined): PruneBlock | undefined {
  if (!row) return { reason: 'not_deletable', detail: 'This session is not in the database any more.' }
  if (row.timeSuspended !== null) return { reason: 'maintenance_required', detail: 'OpenCode is running this session right now; try again when it is idle.' }
  if (row.timeCompacting !== null) return { reason: 'maintenance_required', detail: 'OpenCode is compacting this session; try again when it is done.' }
  if (row.revert !== null) return { reason: 'maintenance_required', detail: 'This session has a staged undo (revert); finish or clear it in OpenCode first.' }
  if (row.ownerID !== null) return { reason: 'unsupported_storage', detail: 'This session is replicated from another workspace; prune it where it lives.' }
  if (row.workspaceID !== null) return { reason: 'unsupported_storage', detail: 'This session belongs to a synced workspace; Loupe does not edit those.' }
  if (row.storedTwice) {
    return { reason: 'unsupported_storage', detail: 'This session is stored twice in this file (an OpenCode upgrade kept the old copy); Loupe edits neither, so the two copies and their shared history cannot disagree.' }
  }
  return undefined
}

/**
 * Media refs in a message on storage whose blob tables Loupe does not recognize (or lacks): the
 * read form could not inline them, so they are still `media:` strings there. Fail closed.
 */
export function checkMedia(store: PruneStore, native: NativeMessage): PruneBlock | undefined {
  if (store.media === 'recognized' || collectMediaRefs(messageContent(native)).size === 0) return undefined
  return { reason: 'unsupported_storage', detail: 'This message keeps media in blob tables Loupe does not recognize.' }
}

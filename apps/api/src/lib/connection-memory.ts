import type { SqliteDb } from './sqlite.js'

/** What a long-lived connection is for: each role gets its page cache (and mmap) on purpose. */
export type ConnectionRole = 'opencode' | 'loupe' | 'indexSearch' | 'indexBuild' | 'indexFollow' | 'indexSource' | 'storageJob'

export interface ConnectionMemory {
  /** SQLite's page cache of this connection, KiB (a cache fills up to it and stays filled while open). */
  cacheKiB: number
  /** Bytes of the file SQLite may read through mmap; 0: none. Touched pages count as the process's RSS. */
  mmapBytes: number
}

/**
 * Every connection Loupe keeps open, and the memory it may hold. better-sqlite3's default is a
 * 16 MB cache per connection, and a cache, once filled, stays filled until the connection closes,
 * so a server that has read its whole history once would hold every default cache full for good.
 * The operating system caches the files anyway; SQLite's own cache only saves re-reading pages it
 * is about to read again.
 */
export const CONNECTION_MEMORY: Record<ConnectionRole, ConnectionMemory> = {
  // The server's connection to OpenCode's file: the session list and a session's pages read each
  // page about once (the totals read record headers in index order), and a prune writes a few. A
  // cache twice this size was no faster; half of it slowed the sorted lists (bench/README.md).
  opencode: { cacheKiB: 4 * 1024, mmapBytes: 0 },
  // Loupe's own small database (receipts, shares, settings).
  loupe: { cacheKiB: 2 * 1024, mmapBytes: 0 },
  // Searches on the server's thread: a query reads its terms' doclists, then the page's rows. No
  // mmap: each page a search touched through it would stay in the process's RSS for as long as the
  // server runs (the sidecar's common terms); read() copies from the OS's cache instead.
  // A page cache four times this size filled up over a few searches and bought no steady speed:
  // some queries ran faster with it, some slower (bench/README.md).
  indexSearch: { cacheKiB: 4 * 1024, mmapBytes: 0 },
  // The initial build's writer. FTS5 writes each batch as a new segment and merges them once at
  // the end; pages it reads again come from the OS's cache, so a cache four times this size bought
  // no speed (bench/README.md). It lives only as long as the build's worker.
  indexBuild: { cacheKiB: 16 * 1024, mmapBytes: 0 },
  // Catch-up after the build: a few documents per OpenCode commit, and the reconcile sweep.
  indexFollow: { cacheKiB: 4 * 1024, mmapBytes: 0 },
  // The indexer's connections to OpenCode's file (its worker's, the build's reader thread's): each
  // row is read once, in rowid order, and catch-up reads only what OpenCode appended.
  indexSource: { cacheKiB: 4 * 1024, mmapBytes: 0 },
  // A storage job's connections in its worker (a clean-up plan, compaction's scan, the doctor, a
  // reclaim's copy): each reads its pages about once. The cache is freed with the connection, but a
  // thread's freed memory stays with the process (glibc keeps it for the next thread).
  storageJob: { cacheKiB: 8 * 1024, mmapBytes: 0 },
}

/** Give `db` the page cache and mmap of its role (settable at any time; a smaller cache sheds pages at once). */
export function applyConnectionMemory(db: SqliteDb, role: ConnectionRole): void {
  const { cacheKiB, mmapBytes } = CONNECTION_MEMORY[role]
  db.raw.pragma(`cache_size = -${cacheKiB}`)
  db.raw.pragma(`mmap_size = ${mmapBytes}`)
}

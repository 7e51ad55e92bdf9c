import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../../lib/sqlite.js'
import type { StorageLayout } from '../../store/probe.js'
import {
  estimateEventRows, listTables, readContentBytes, readFileFacts, readProjects, readSessionBytes, readTableBytes, splitEventLog,
  type AggregateEvents, type ContentBytes, type EventSlice,
} from '../../store/storage-doctor.store.js'
import { measureDataDir, type DataDirSizes } from './data-dir-sizes.js'

export const DOCTOR_TOP_SESSIONS = 50

export interface DoctorSession {
  id: string
  storage: StorageGeneration
  title: string
  projectID: string
  /** Message and part (or 2.x message) bytes plus the session's event log. */
  bytes: number
  eventBytes: number
  supersededBytes: number
}

export interface DoctorProject {
  id: string
  name: string
  sessions: number
  bytes: number
  eventBytes: number
}

/** What `storage.doctor` and `loupe doctor` answer: where the bytes of the whole file are. */
export interface DoctorReport {
  path: string
  generatedAt: number
  /** Milliseconds the scan took. */
  tookMs: number
  files: { db: number; wal: number; pageSize: number; freeBytes: number }
  /** Payload bytes per table (sum of column lengths; page overhead and indexes are not in it). */
  tables: Record<string, number>
  /** Event-log bytes: the newest snapshots and other events, superseded snapshots, already-redacted ones. */
  events: { current: number; superseded: number; redacted: number }
  eventCounts: { current: number; superseded: number; redacted: number; unkeyed: number }
  content: ContentBytes
  sessions: DoctorSession[]
  sessionCount: number
  projects: DoctorProject[]
  dataDir: DataDirSizes
}

export type DoctorPhase = 'tables' | 'events' | 'sessions' | 'content' | 'dataDir'
export interface DoctorProgress {
  phase: DoctorPhase
  /** 0…1 over the whole scan; the event pass is most of it. */
  fraction: number
}

interface ReportInput {
  db: SqliteDb
  layout: StorageLayout
  path: string
  dataDir: string
  fileSizes: { db: number; wal: number }
  now: () => number
  onProgress: (p: DoctorProgress) => void
}

const slice = (s: EventSlice) => s.bytes

function assembleSessions(input: ReportInput, perAggregate: Map<string, AggregateEvents>) {
  const all = readSessionBytes(input.db, input.layout).map((s): DoctorSession => {
    const events = perAggregate.get(s.id) ?? { bytes: 0, supersededBytes: 0 }
    return { id: s.id, storage: s.storage, title: s.title ?? '', projectID: s.projectID, bytes: s.bytes + events.bytes, eventBytes: events.bytes, supersededBytes: events.supersededBytes }
  })
  const names = new Map(readProjects(input.db, input.layout).map((p) => [p.id, p.name || p.worktree]))
  const projects = new Map<string, DoctorProject>()
  for (const s of all) {
    const p = projects.get(s.projectID) ?? { id: s.projectID, name: names.get(s.projectID) ?? s.projectID, sessions: 0, bytes: 0, eventBytes: 0 }
    projects.set(s.projectID, p)
    p.sessions += 1
    p.bytes += s.bytes
    p.eventBytes += s.eventBytes
  }
  all.sort((a, b) => b.bytes - a.bytes || a.id.localeCompare(b.id))
  return { sessions: all.slice(0, DOCTOR_TOP_SESSIONS), sessionCount: all.length, projects: [...projects.values()].sort((a, b) => b.bytes - a.bytes) }
}

/** One scan of the whole file, inside one read transaction so every figure is of the same moment. */
export function buildDoctorReport(input: ReportInput): DoctorReport {
  const started = input.now()
  const { db, layout, onProgress } = input
  return db.read(() => {
    onProgress({ phase: 'tables', fraction: 0 })
    const facts = readFileFacts(db)
    const tables: Record<string, number> = {}
    for (const t of listTables(db)) tables[t] = readTableBytes(db, t)
    const perAggregate = new Map<string, AggregateEvents>()
    let split = { current: { count: 0, bytes: 0 }, superseded: { count: 0, bytes: 0 }, redacted: { count: 0, bytes: 0 }, unkeyed: 0 }
    if (layout.tables.includes('event')) {
      const total = Math.max(1, estimateEventRows(db))
      onProgress({ phase: 'events', fraction: 0.05 })
      split = splitEventLog(db, (rows) => onProgress({ phase: 'events', fraction: 0.05 + 0.8 * Math.min(1, rows / total) }), perAggregate)
    }
    onProgress({ phase: 'sessions', fraction: 0.85 })
    const sessions = assembleSessions(input, perAggregate)
    onProgress({ phase: 'content', fraction: 0.9 })
    const content = readContentBytes(db, layout)
    onProgress({ phase: 'dataDir', fraction: 0.97 })
    const dataDir = measureDataDir(input.dataDir)
    return {
      path: input.path,
      generatedAt: input.now(),
      tookMs: input.now() - started,
      files: { ...input.fileSizes, pageSize: facts.pageSize, freeBytes: facts.freePages * facts.pageSize },
      tables,
      events: { current: slice(split.current), superseded: slice(split.superseded), redacted: slice(split.redacted) },
      eventCounts: { current: split.current.count, superseded: split.superseded.count, redacted: split.redacted.count, unkeyed: split.unkeyed },
      content,
      ...sessions,
      dataDir,
    }
  })
}

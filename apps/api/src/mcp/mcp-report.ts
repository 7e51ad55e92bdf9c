import { mibText } from '@loupe/domain'
import { listProjects, listSessions, type SessionsDeps } from '../features/sessions/sessions.service.js'
import { clip } from './mcp-text.js'
import type { McpAnswer } from './mcp-search.js'

const LARGEST = 5

/** `storage_report`: the file, its sessions and the largest of them, in a few lines (the sessions services' numbers). */
export function storageReport(deps: SessionsDeps): McpAnswer {
  const { opencode } = deps
  const sizes = opencode.fileSizes()
  const projects = listProjects(deps, {})
  const sessions = projects.reduce((n, p) => n + p.sessions, 0)
  const largest = listSessions(deps, { limit: LARGEST, includeArchived: true, sort: 'size', order: 'desc' }).sessions
  const bytesOf = (s: (typeof largest)[number]) => s.stats.bytes.messages + s.stats.bytes.parts + s.stats.bytes.events
  const lines = [
    `OpenCode database: ${opencode.path}`,
    `File: ${mibText(sizes.db)} (+ ${mibText(sizes.wal)} write-ahead log); storage ${opencode.layout.generations.map((g) => g.generation).join(' + ') || 'unknown'}${opencode.readonly ? ', read-only for Loupe' : ''}`,
    `Sessions: ${sessions} (not archived) in ${projects.length} projects`,
    ...projects.slice(0, 5).map((p) => `  ${clip(p.name, 80)}: ${p.sessions} sessions`),
    `Largest sessions:`,
    ...largest.map((s) => `  ${s.id} ${clip(s.title || '(untitled)', 80)} — ${mibText(bytesOf(s))} (events ${mibText(s.stats.bytes.events)}), ${s.stats.messages} messages`),
  ]
  return {
    text: lines.join('\n'),
    data: { dbBytes: sizes.db, walBytes: sizes.wal, sessions, projects: projects.length, largest: largest.map((s) => ({ sessionID: s.id, bytes: bytesOf(s) })) },
  }
}

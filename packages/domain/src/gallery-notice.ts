import { GENERATE_TOOL } from './gallery-items.js'
import { resolveLexical } from './location-path.js'
import type { ProofNotice } from './provenance.js'

/** What one synthetic row says, once SQLite has decoded its small fields. */
export type NoticeReading = { kind: 'notice'; notice: ProofNotice } | { kind: 'other' } | { kind: 'undecodable' }

const PREFIX = 'Saved image: '
const STATES = new Set(['completed', 'error', 'cancelled'])

/** The file a "Saved image: <file> (…" text names, if it has that form. */
export function noticeTextFile(text: unknown): string | undefined {
  if (typeof text !== 'string' || !text.startsWith(PREFIX)) return undefined
  const end = text.indexOf(' (', PREFIX.length)
  const file = end < 0 ? undefined : text.slice(PREFIX.length, end)
  return file ? file : undefined
}

/**
 * Read a decoded synthetic row as a generation notice (`metadata.source|jobID|state|path`, text
 * `Saved image: <file> (`). A row that claims the tool but breaks the contract, or names a saved
 * image without it, is `undecodable`: it fails closed exactly like a row too large to decode.
 */
export function readNotice(row: { time: number; metadata: unknown; text: unknown }, directory: string): NoticeReading {
  const metadata = typeof row.metadata === 'object' && row.metadata !== null ? (row.metadata as Record<string, unknown>) : {}
  const textFile = noticeTextFile(row.text)
  if (metadata.source !== GENERATE_TOOL) return textFile === undefined ? { kind: 'other' } : { kind: 'undecodable' }
  const { jobID, state, path } = metadata
  if (typeof jobID !== 'string' || jobID.length === 0 || typeof state !== 'string' || !STATES.has(state)) return { kind: 'undecodable' }
  if (path !== undefined && typeof path !== 'string') return { kind: 'undecodable' }
  const fromPath = path ? resolveLexical(directory, path) : undefined
  const fromText = textFile ? resolveLexical(directory, textFile) : undefined
  if (fromPath && fromText && fromPath !== fromText) return { kind: 'undecodable' }
  return { kind: 'notice', notice: { time: row.time, jobID, state: state as ProofNotice['state'], file: fromPath ?? fromText } }
}

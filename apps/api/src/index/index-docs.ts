import { isDefaultTitle, messageSearchDocs, partSearchFields, type StorageGeneration } from '@loupe/domain'
import { parseObject } from '../store/session-row.js'
import { TITLE_KEY, type DocInput } from './index-writer.js'
import type { SourceSession, V1PartRow, V2MessageRow } from './opencode-source.js'

/** What a document needs from its session: the scope tokens. */
export interface SessionScope {
  projectID: string
  directory: string
}

export const NO_SCOPE: SessionScope = { projectID: '', directory: '' }

/** The document of a 1.x part row, or null when the part has nothing to search. */
export function v1Doc(row: V1PartRow, scope: SessionScope): DocInput | null {
  if (row.data === null) return null
  const part = parseObject(row.data)
  const fields = part && partSearchFields(part, row.role ?? 'unknown')
  if (!fields) return null
  return {
    gen: 'v1', sessionID: row.session_id, messageID: row.message_id, partKey: row.id, fields,
    time: row.time_created, srcUpdated: row.time_updated, ...scope,
  }
}

/** The documents of a 2.x `session_message` row (one per content item, or the row's text). */
export function v2Docs(row: V2MessageRow, scope: SessionScope): DocInput[] {
  const data = parseObject(row.data)
  if (!data) return []
  return messageSearchDocs(row.type, data).map(({ key, ...fields }) => ({
    gen: 'v2', sessionID: row.session_id, messageID: row.id, partKey: key, fields,
    time: row.time_created, srcUpdated: row.time_updated, ...scope,
  }))
}

/** A session's title as its own document (placeholder titles are not indexed). */
export function titleDoc(session: SourceSession): DocInput | null {
  const title = session.title.trim()
  if (!title || isDefaultTitle(title)) return null
  return {
    gen: session.gen, sessionID: session.id, messageID: '', partKey: TITLE_KEY,
    fields: { kind: 'title', tool: null, title, body: '', input: '', output: '' },
    time: session.time_created, srcUpdated: session.time_updated, projectID: session.project_id, directory: session.directory,
  }
}

export const sessionKey = (gen: StorageGeneration, id: string) => `${gen}:${id}`

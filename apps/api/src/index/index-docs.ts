import { isDefaultTitle, type StorageGeneration } from '@loupe/domain'
import { TITLE_KEY, type DocInput, type SourceSession } from '../store/index-source.js'

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

export const sessionKey = (gen: StorageGeneration | string, id: string) => `${gen}:${id}`

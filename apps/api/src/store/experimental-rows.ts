import type { GenerationLayout, StorageLayout } from './probe.js'

/**
 * Which rows of a generation's session table are its sessions, as an SQL condition on `table`
 * (null: every row). Without `session_v2`, 1.18's experimental 2.x sessions share the `session`
 * table: they are the rows that own `session_message` rows, and the 1.x view leaves them out.
 * SQL text rather than Kysely, so the indexing threads apply the same rule without loading Kysely.
 */
export function ownSessionsWhere(layout: GenerationLayout, storage: StorageLayout, table: string): string | null {
  const owns = `EXISTS (SELECT 1 FROM session_message WHERE session_message.session_id = ${table}.id)`
  if (layout.experimental) return owns
  const shared = layout.generation === 'v1' && storage.generations.some((g) => g.experimental)
  return shared ? `NOT ${owns}` : null
}

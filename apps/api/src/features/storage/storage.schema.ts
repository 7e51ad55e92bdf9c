import { z } from 'zod'
import { sessionIdSchema } from '../../store/session-ids.schema.js'

/** Sessions one compaction may name; without a list it covers every 1.x session with events. */
export const COMPACT_SESSIONS_MAX = 1000

/** Strict: the client says only whether to write and which sessions; never SQL, a path or content. */
export const compactInput = z.strictObject({
  dryRun: z.boolean(),
  sessionIDs: z.array(sessionIdSchema).min(1).max(COMPACT_SESSIONS_MAX).optional(),
})
export type CompactInput = z.infer<typeof compactInput>

import { LIMITS, QUERY_LIMITS, SEARCH_KINDS } from '@loupe/domain'
import { z } from 'zod'
import { sessionIdSchema, storageSchema } from '../../store/session-ids.schema.js'

const time = z.number().int().min(0).max(8_640_000_000_000_000)

export const searchInput = z.strictObject({
  query: z.string().max(QUERY_LIMITS.inputChars),
  sessionID: sessionIdSchema.optional(),
  storage: storageSchema.optional(),
  projectID: sessionIdSchema.optional(),
  /** Must be the directory of a known session; never read as a path. */
  directory: z.string().min(1).max(4096).optional(),
  kinds: z.array(z.enum(SEARCH_KINDS)).min(1).max(SEARCH_KINDS.length).optional(),
  tool: z.string().min(1).max(128).optional(),
  since: time.optional(),
  until: time.optional(),
  cursor: z.string().min(1).max(LIMITS.cursorChars).optional(),
  limit: z.number().int().min(1).max(100).optional(),
})
export type SearchInput = z.infer<typeof searchInput>

/** The same question and scope as a search, without paging: clean-up covers every hit. */
export const candidatesInput = searchInput.omit({ cursor: true, limit: true })
export type CandidatesInput = z.infer<typeof candidatesInput>

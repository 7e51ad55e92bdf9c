import { LIMITS, SESSION_SORTS, SORT_ORDERS } from '@loupe/domain'
import { z } from 'zod'
import { sessionIdSchema, storageSchema } from '../../store/session-ids.schema.js'
const cursorSchema = z.string().min(1).max(LIMITS.cursorChars)

export const listSessionsInput = z.strictObject({
  search: z.string().max(200).optional(),
  projectID: sessionIdSchema.optional(),
  includeArchived: z.boolean().optional(),
  rootsOnly: z.boolean().optional(),
  /** Newest activity first unless asked: `updated`, stored `size`, `eventBytes`, `tokens`, `cost` or `messages`. */
  sort: z.enum(SESSION_SORTS).optional(),
  order: z.enum(SORT_ORDERS).optional(),
  cursor: cursorSchema.optional(),
  limit: z.number().int().min(1).max(LIMITS.pageSizeMax).optional(),
})
export type ListSessionsInput = z.infer<typeof listSessionsInput>

/** The project menu counts the sessions the list would show with these toggles. */
export const listProjectsInput = z
  .strictObject({
    includeArchived: z.boolean().optional(),
    rootsOnly: z.boolean().optional(),
  })
  .optional()
export type ListProjectsInput = z.infer<typeof listProjectsInput>

export const getSessionInput = z.strictObject({
  sessionID: sessionIdSchema,
  storage: storageSchema.optional(),
})
export type GetSessionInput = z.infer<typeof getSessionInput>

export const listMessagesInput = z.strictObject({
  sessionID: sessionIdSchema,
  storage: storageSchema.optional(),
  cursor: cursorSchema.optional(),
  anchor: z.enum(['latest', 'earliest']).optional(),
  around: sessionIdSchema.optional(),
  limit: z.number().int().min(1).max(LIMITS.pageSizeMax).optional(),
})
export type ListMessagesInput = z.infer<typeof listMessagesInput>

export const getMessageInput = z.strictObject({
  sessionID: sessionIdSchema,
  storage: storageSchema.optional(),
  messageID: sessionIdSchema,
})
export type GetMessageInput = z.infer<typeof getMessageInput>

export const pruneNotesInput = z.strictObject({
  sessionID: sessionIdSchema,
  storage: storageSchema.optional(),
  /** The messages on screen: a transcript page holds at most this many. */
  messageIDs: z.array(sessionIdSchema).min(1).max(LIMITS.pageSizeMax),
})
export type PruneNotesInput = z.infer<typeof pruneNotesInput>

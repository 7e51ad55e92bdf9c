import { LIMITS, REVISION_PATTERN } from '@loupe/domain'
import { z } from 'zod'
import { sessionIdSchema, storageSchema } from '../../store/session-ids.schema.js'

/** Strict: no key beyond these exists, so no SQL, path or replacement content can be sent. */
const target = { sessionID: sessionIdSchema, storage: storageSchema.optional() }
const revisionSchema = z.string().regex(REVISION_PATTERN, 'a 64-character lowercase hex revision')

const indexesSchema = z
  .array(z.number().int().min(0).max(LIMITS.pruneIndexMax))
  .min(1)
  .max(LIMITS.pruneIndexesMax)
  .refine((list) => new Set(list).size === list.length, 'indexes must be unique')

export const previewInput = z.strictObject({ ...target, messageID: sessionIdSchema })
export type PreviewInput = z.infer<typeof previewInput>

export const pruneInput = z.strictObject({ ...target, messageID: sessionIdSchema, revision: revisionSchema, indexes: indexesSchema })
export type PruneInput = z.infer<typeof pruneInput>

export const pruneBatchInput = z.strictObject({
  ...target,
  candidates: z
    .array(z.strictObject({ messageID: sessionIdSchema, revision: revisionSchema }))
    .min(1)
    .max(LIMITS.pruneBatchMax)
    .refine((list) => new Set(list.map((c) => c.messageID)).size === list.length, 'one candidate per message'),
})
export type PruneBatchInput = z.infer<typeof pruneBatchInput>

export const sessionPlanInput = z.strictObject(target)
export type SessionPlanInput = z.infer<typeof sessionPlanInput>


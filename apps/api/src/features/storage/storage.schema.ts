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

import { BACKUP_STAMP } from './reclaim-files.js'

export const doctorInput = z.strictObject({ refresh: z.boolean().default(false) }).default({ refresh: false })
export type DoctorInput = z.infer<typeof doctorInput>

export const reclaimInput = z.strictObject({ confirm: z.literal('reclaim'), keepBackup: z.boolean().default(true) })
export type ReclaimInput = z.infer<typeof reclaimInput>

/** A backup is named by its stamp; the server builds the path. */
export const removeBackupInput = z.strictObject({ stamp: z.string().max(20).regex(BACKUP_STAMP) })
export type RemoveBackupInput = z.infer<typeof removeBackupInput>

/** A retention rule: sessions idle at least `idleDays`, optionally one project, optionally only tool parts of at least `minToolOutputKB`. */
export const cleanRule = z.strictObject({
  idleDays: z.number().int().min(0).max(36_500),
  projectID: sessionIdSchema.optional(),
  minToolOutputKB: z.number().int().min(1).max(1_048_576).optional(),
})
export type CleanRule = z.infer<typeof cleanRule>

export const cleanPlanInput = z.strictObject({ rule: cleanRule })
export type CleanPlanInput = z.infer<typeof cleanPlanInput>

export const cleanApplyInput = z.strictObject({ rule: cleanRule, fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'the fingerprint of a plan') })
export type CleanApplyInput = z.infer<typeof cleanApplyInput>

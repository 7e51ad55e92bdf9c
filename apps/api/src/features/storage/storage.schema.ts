import { z } from 'zod'
import { BACKUP_STAMP } from './reclaim-files.js'

export const doctorInput = z.strictObject({ refresh: z.boolean().default(false) }).default({ refresh: false })
export type DoctorInput = z.infer<typeof doctorInput>

export const reclaimInput = z.strictObject({ confirm: z.literal('reclaim'), keepBackup: z.boolean().default(true) })
export type ReclaimInput = z.infer<typeof reclaimInput>

/** A backup is named by its stamp; the server builds the path. */
export const removeBackupInput = z.strictObject({ stamp: z.string().max(20).regex(BACKUP_STAMP) })
export type RemoveBackupInput = z.infer<typeof removeBackupInput>

import { ID_PATTERN, LIMITS, type StorageGeneration } from '@loupe/domain'
import { z } from 'zod'

/** An OpenCode id (session, message) as a client may send it. */
export const sessionIdSchema = z.string().regex(ID_PATTERN).max(LIMITS.idLength)
/** A storage generation Loupe reads: 1.x or 2.x. */
export const storageSchema = z.enum(['v1', 'v2'])

/** A generation stored as text (a share row, a cursor), or undefined when it names none Loupe knows. */
export const parseStorage = (value: unknown): StorageGeneration | undefined => storageSchema.safeParse(value).data

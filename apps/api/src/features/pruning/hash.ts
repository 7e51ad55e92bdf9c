import type { Sha256Hex } from '@loupe/domain'
import { createHash } from 'node:crypto'

/** node:crypto's SHA-256: the same digest as the domain's pure one, several times faster on large content. */
export const nodeSha256: Sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex')

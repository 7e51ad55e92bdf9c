import { createHash } from 'node:crypto'

/** SHA-256 of a string's UTF-8 bytes, lowercase hex (node:crypto: the same answer as the domain's, faster). */
export const sha256Text = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

/** SHA-256 of bytes, lowercase hex. */
export const sha256Bytes = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

import type { Sha256Hex, TextDigest } from '@loupe/domain'
import { createHash } from 'node:crypto'

/** SHA-256 of a string's UTF-8 bytes, lowercase hex (node:crypto: the same answer as the domain's, faster). */
export const sha256Text = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

/** SHA-256 of bytes, lowercase hex: the same digest as the domain's pure one, several times faster on large content. */
export const sha256Bytes: Sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex')

/** Canonical pieces hashed and measured natively: each string goes to OpenSSL as it is, never joined first. */
export const nodeDigest: TextDigest = {
  sha256(pieces) {
    const hash = createHash('sha256')
    for (const piece of pieces) hash.update(piece)
    return hash.digest('hex')
  },
  utf8Length: (text) => Buffer.byteLength(text),
}

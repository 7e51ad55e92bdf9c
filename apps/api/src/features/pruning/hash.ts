import type { Sha256Hex, TextDigest } from '@loupe/domain'
import { createHash } from 'node:crypto'

/** node:crypto's SHA-256: the same digest as the domain's pure one, several times faster on large content. */
export const nodeSha256: Sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex')

/** Canonical pieces hashed and measured natively: each string goes to OpenSSL as it is, never joined first. */
export const nodeDigest: TextDigest = {
  sha256(pieces) {
    const hash = createHash('sha256')
    for (const piece of pieces) hash.update(piece)
    return hash.digest('hex')
  },
  utf8Length: (text) => Buffer.byteLength(text),
}

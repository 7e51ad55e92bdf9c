import { createHash } from 'node:crypto'

/** 32 random bytes, base64url: 256 bits, far beyond the 128 a guesser would need to beat. */
export const TOKEN_BYTES = 32
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

export interface NewToken {
  token: string
  hash: string
  hint: string
}

/** Only this hash is stored; a stolen Loupe DB does not give working links. */
export const hashShareToken = (token: string): string => createHash('sha256').update(`loupe-share:${token}`).digest('hex')

export function createShareToken(randomBytes: (size: number) => Buffer): NewToken {
  const token = randomBytes(TOKEN_BYTES).toString('base64url')
  return { token, hash: hashShareToken(token), hint: token.slice(-4) }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const LOOKUP = new Map([...ALPHABET].map((c, i) => [c, i]))

/** base64url without padding over the UTF-8 bytes of `text`. */
export function encodeBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text)
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i] ?? 0
    const b1 = bytes[i + 1] ?? 0
    const b2 = bytes[i + 2] ?? 0
    const n = (b0 << 16) | (b1 << 8) | b2
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!
    if (i + 1 < bytes.length) out += ALPHABET[(n >> 6) & 63]!
    if (i + 2 < bytes.length) out += ALPHABET[n & 63]!
  }
  return out
}

/** Inverse of encodeBase64Url; undefined for anything that is not canonical base64url UTF-8. */
export function decodeBase64Url(encoded: string): string | undefined {
  if (encoded.length % 4 === 1) return undefined
  const bytes: number[] = []
  for (let i = 0; i < encoded.length; i += 4) {
    const chunk = encoded.slice(i, i + 4)
    let n = 0
    for (let j = 0; j < 4; j++) {
      const c = chunk[j]
      const v = c === undefined ? 0 : LOOKUP.get(c)
      if (v === undefined) return undefined
      n = (n << 6) | v
    }
    bytes.push((n >> 16) & 255)
    if (chunk.length > 2) bytes.push((n >> 8) & 255)
    if (chunk.length > 3) bytes.push(n & 255)
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes))
    return encodeBase64Url(text) === encoded ? text : undefined
  } catch {
    return undefined
  }
}

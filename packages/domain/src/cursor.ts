import { decodeBase64Url, encodeBase64Url } from './base64url.js'
import type { Cursor } from './ids.js'
import { err, ok, type Result } from './result.js'
import { canonicalJson, computeRevision } from './revision.js'

export type CursorError = 'invalid_cursor' | 'conflict'

/**
 * A binding ties a cursor to the query and scope it was issued for: the first 32 hex
 * characters of the SHA-256 of the canonical JSON of `scope`.
 */
export function bindScope(scope: unknown): string {
  return computeRevision(scope).slice(0, 32)
}

/**
 * Opaque cursor: base64url of `{"v":1,"k":kind,"b":binding,"p":payload}`.
 * @example encodeCursor('messages', bindScope({sessionID}), { key: [1795977699546, 'msg_…'], dir: 'older' })
 */
export function encodeCursor(kind: string, binding: string, payload: unknown): Cursor {
  return encodeBase64Url(canonicalJson({ v: 1, k: kind, b: binding, p: payload })) as Cursor
}

/**
 * Decode a cursor issued by encodeCursor for this kind. Malformed or foreign-kind input is
 * `invalid_cursor`; a well-formed cursor bound to another query or scope is `conflict`.
 */
export function decodeCursor<P>(
  cursor: string,
  kind: string,
  binding: string,
  isPayload: (payload: unknown) => payload is P,
): Result<P, CursorError> {
  const text = decodeBase64Url(cursor)
  if (text === undefined) return err('invalid_cursor')
  let envelope: unknown
  try {
    envelope = JSON.parse(text)
  } catch {
    return err('invalid_cursor')
  }
  if (typeof envelope !== 'object' || envelope === null) return err('invalid_cursor')
  const { v, k, b, p } = envelope as Record<string, unknown>
  if (v !== 1 || k !== kind || typeof b !== 'string' || !isPayload(p)) return err('invalid_cursor')
  if (b !== binding) return err('conflict')
  return ok(p)
}

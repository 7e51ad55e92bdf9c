import { utf8Length } from '../../lib/format'

/** Defensive readers for OpenCode's free-form JSON: a malformed field reads as absent, never throws. */
export type Json = Record<string, unknown>

export { arr, isObject, num, obj, str } from '@loupe/domain'

/** Serialized size of a JSON value in UTF-8 bytes, as OpenCode stores it. */
export function jsonBytes(value: unknown): number {
  try {
    return utf8Length(JSON.stringify(value) ?? '')
  } catch {
    return 0
  }
}

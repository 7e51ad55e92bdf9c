import { utf8Length } from '../../lib/format'

/** Defensive readers for OpenCode's free-form JSON: a malformed field reads as absent, never throws. */
export type Json = Record<string, unknown>

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
export const obj = (v: unknown): Json => (isObject(v) ? v : {})
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** Serialized size of a JSON value in UTF-8 bytes, as OpenCode stores it. */
export function jsonBytes(value: unknown): number {
  try {
    return utf8Length(JSON.stringify(value) ?? '')
  } catch {
    return 0
  }
}

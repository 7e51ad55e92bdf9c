import { parseCanonicalObject, type CanonicalObject, type JsonObject } from '@loupe/domain'

/** JSON text to an object, or null for NULL, malformed text or non-objects. */
export function parseObject(text: string | null | undefined): JsonObject | null {
  if (!text) return null
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null
  } catch {
    return null
  }
}

/** Below this many characters, serializing the parsed value is as quick as reading the text canonically. */
const CANONICAL_TEXT_CHARS = 4096

/** `parseObject`, plus (when asked, and the text is long) its members' canonical pieces read off the text. */
export function parseObjectCanonical(text: string | null | undefined, canonical: boolean): { value: JsonObject | null; canonical: CanonicalObject | null } {
  if (!canonical || !text || text.length < CANONICAL_TEXT_CHARS) return { value: parseObject(text), canonical: null }
  return parseCanonicalObject(text)
}

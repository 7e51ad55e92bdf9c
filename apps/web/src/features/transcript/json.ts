/** Defensive readers for OpenCode's free-form JSON: a malformed field reads as absent, never throws. */
export type Json = Record<string, unknown>

export { arr, isObject, num, obj, str } from '@loupe/domain'

/** A part's size as every screen shows it (the prune review counts the same): see `partBytes`. */
export { partBytes as jsonBytes } from '@loupe/domain'

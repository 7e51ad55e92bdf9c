import type { JsonObject } from './native.js'

/** Defensive readers for OpenCode's free-form JSON: a malformed field reads as absent, never throws. */
export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)
export const obj = (v: unknown): JsonObject => (isObject(v) ? v : {})
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

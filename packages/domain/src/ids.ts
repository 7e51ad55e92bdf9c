declare const brand: unique symbol
type Brand<T, B extends string> = T & { readonly [brand]: B }

export type SessionID = Brand<string, 'SessionID'>
export type MessageID = Brand<string, 'MessageID'>
export type PartID = Brand<string, 'PartID'>
/** Lowercase hex SHA-256 of canonical JSON (see revision.ts). */
export type Revision = Brand<string, 'Revision'>
export type Cursor = Brand<string, 'Cursor'>

/** The two OpenCode storage generations; a session is identified by (storage, id). */
export type StorageGeneration = 'v1' | 'v2'

/** OpenCode ids are a prefix plus 26 characters; we accept the id alphabet only, never path or SQL syntax. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,256}$/
/** Lowercase SHA-256 hex: revisions, image digests, thumbnail keys. */
export const SHA256_HEX_PATTERN = /^[a-f0-9]{64}$/
export const REVISION_PATTERN = SHA256_HEX_PATTERN

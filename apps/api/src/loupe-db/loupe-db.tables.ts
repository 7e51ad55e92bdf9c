/** Loupe's own state file (`<data dir>/loupe.db`), never inside OpenCode's directory. */
export interface MetaTable {
  key: string
  value: string
}

/** A LAN share link: read-only access to one session's gallery until it expires or is revoked. */
export interface ShareTable {
  id: string
  /** SHA-256 hex of the token; the token itself is shown once and never stored. */
  token_hash: string
  /** The token's last 4 characters, so the owner can tell links apart. */
  token_hint: string
  session_id: string
  /** `v1` or `v2`: the storage generation of the shared session. */
  storage: string
  created_at: number
  expires_at: number
  revoked_at: number | null
}

export interface LoupeDB {
  meta: MetaTable
  share: ShareTable
}

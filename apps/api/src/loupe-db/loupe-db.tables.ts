/** Loupe's own state file (`<data dir>/loupe.db`), never inside OpenCode's directory. */
export interface MetaTable {
  key: string
  value: string
}

export interface LoupeDB {
  meta: MetaTable
}

import type { Migration } from 'kysely'
import * as createMeta from './2026-11-29T1200-create-meta.js'
import * as createShares from './2026-11-29T1300-create-shares.js'

/** Every migration of Loupe's own file, by name; names sort by their date prefix. */
export const loupeMigrations: Record<string, Migration> = {
  '2026-11-29T1200-create-meta': createMeta,
  '2026-11-29T1300-create-shares': createShares,
}

import type { Kysely } from 'kysely'

/** LAN share links: only the SHA-256 of each token is stored, never the token. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_hint', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('storage', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('revoked_at', 'integer')
    .execute()
  await db.schema.createIndex('share_session_idx').ifNotExists().on('share').column('session_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share').ifExists().execute()
}

import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely'

// Apart from sqlite.ts so the indexing threads, which use raw statements only, start without
// loading Kysely (half a second of module loading on a busy machine).

/** A Kysely that only compiles; typed by the table interfaces `DB`. */
export function createQueryBuilder<DB>(): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  })
}

import type { AppDeps } from '../../deps.js'

/** What Loupe opened and what it can do with it. */
export function describeStorage(deps: AppDeps) {
  const { opencode, config } = deps
  const { layout } = opencode
  const sizes = opencode.fileSizes()
  return {
    path: opencode.path,
    demo: config.demo,
    sizeBytes: sizes.db,
    walBytes: sizes.wal,
    generations: layout.generations.map((g) => ({ generation: g.generation, sessionTable: g.sessionTable, experimental: g.experimental })),
    opencodeVersions: layout.opencodeVersions,
    migrations: layout.migrations,
    eventLog: layout.eventLog,
    kv: layout.kv,
    blobTables: layout.blobTables,
    supported: {
      read: layout.readable,
      write: layout.readable && !opencode.readonly,
      reasons: opencode.readonly && layout.problems.length === 0 ? ['the file is not writable by Loupe'] : layout.problems,
    },
    opencodeUrl: deps.opencodeClient.url,
    lan: { host: config.host, addresses: config.lanAddresses, port: config.port },
  }
}

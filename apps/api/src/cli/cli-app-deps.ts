import { randomBytes } from 'node:crypto'
import { createAppDeps } from '../app-deps.js'
import { DEFAULT_LIVE_WINDOW_MINUTES } from '../config.js'
import type { AppDeps } from '../deps.js'
import { SERVER_LIMITS } from '../http/server-limits.js'
import { systemClock } from '../lib/clock.js'
import type { OpenCodeHandle } from '../store/open-opencode.js'
import type { CliOpenCode } from './cli-args.js'

/**
 * The deps the prune path needs, built without listening: Loupe's own database and its search
 * sidecar (a prune re-indexes what it changed), and the OpenCode client the live guard asks
 * (every OpenCode process holding the file, with the environment's credentials).
 */
export async function createCliAppDeps(opencode: OpenCodeHandle, dataDir: string, server: CliOpenCode): Promise<AppDeps & { close(): Promise<void> }> {
  const deps = await createAppDeps({
    config: {
      host: '127.0.0.1', port: 0, token: randomBytes(24).toString('base64url'), dataDir,
      allowedHostNames: [], lanAddresses: [], webRoot: null, demo: false, serverLimits: SERVER_LIMITS, liveWindowMs: DEFAULT_LIVE_WINDOW_MINUTES * 60_000,
    },
    opencode,
    clock: systemClock,
    opencodeServer: server,
    gitEnv: {},
    searchIndex: { mode: 'manual' },
  })
  return Object.assign(deps, {
    close: async () => {
      await deps.searchIndex.close()
      deps.loupeDb.close()
    },
  })
}

export declare const repoRoot: string
export declare function freePort(): Promise<number>
export interface LoupeServerProcess {
  baseURL: string
  token: string
  pid: number
  output: () => string
  stop: () => Promise<void>
}
export declare function startLoupeServer(options: {
  db: string
  dir: string
  token?: string
  verbose?: boolean
  readyTimeoutMs?: number
  /** More command-line flags for Loupe, e.g. `['--opencode-url', url]`. */
  args?: string[]
  /** Listen here instead of a free port (a client was configured with it beforehand). */
  port?: number
  /** 'dist': the JS build on plain node with the launchers' environment, as `npm start`; 'bin': `bin/loupe.mjs serve`, as an installed package; 'source' (default): src/main.ts through tsx. 'dist' and 'source' get tools/server-launch.mjs's environment and flags. */
  run?: 'dist' | 'bin' | 'source'
}): Promise<LoupeServerProcess>

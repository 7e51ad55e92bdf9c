import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureRealFixture } from '../../../tools/fixtures.mjs'
import { createAppDeps } from '../src/app-deps.js'
import { DEFAULT_LIVE_WINDOW_MINUTES } from '../src/config.js'
import type { AppDeps } from '../src/deps.js'
import { SERVER_LIMITS } from '../src/http/server-limits.js'
import { fixedClock } from '../src/lib/clock.js'
import { openOpenCode } from '../src/store/open-opencode.js'
import { createCallerFactory } from '../src/trpc/init.js'
import { appRouter } from '../src/trpc/app-router.js'

export const TEST_TOKEN = 'test-token-not-secret'
export const TEST_NOW = Date.UTC(2026, 10, 29, 12, 0, 0)

export interface RealFixture {
  dir: string
  db: string
  sessionsDir: string
  sessionsV2Dir: string
}

/** The real OpenCode 1.18.33 fixture (generated once per machine by tools/fixtures.mjs). Never written to. */
export async function realFixture(): Promise<RealFixture> {
  const dir = await ensureRealFixture()
  return { dir, db: path.join(dir, 'opencode.db'), sessionsDir: path.join(dir, 'sessions'), sessionsV2Dir: path.join(dir, 'sessions-v2') }
}

/** A fresh temp dir; removed by the caller's cleanup. */
export function tempDir(prefix = 'loupe-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/** Copy a database with its WAL/SHM sidecars into a new temp dir. */
export function copyDb(source: string, dir = tempDir()): string {
  const target = path.join(dir, 'opencode.db')
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(source + suffix)) fs.copyFileSync(source + suffix, target + suffix)
  }
  return target
}

export interface TestDeps extends AppDeps {
  dir: string
  cleanup(): void
}

export interface TestDepsOptions {
  /** 'manual' (default): the index builds only on `searchIndex.runUntilIdle()`; 'worker': as in production. */
  searchIndex?: 'manual' | 'worker'
  /** Builds of at least this many rows use the reader thread (production: 20,000). */
  pipelineMinRows?: number
  /** `copy: false` opens the file itself instead of a copy. */
  copy?: boolean
}

/** Deps over a copy of `dbPath`: isolated data dir, fixed clock, no network. */
export async function createTestDeps(dbPath: string, overrides: Partial<AppDeps['config']> = {}, options: TestDepsOptions = {}): Promise<TestDeps> {
  const dir = tempDir()
  // `copy: false` opens the file itself: a second Loupe process on a test's database (fault tests).
  const db = options.copy === false ? dbPath : copyDb(dbPath, dir)
  const app = await createAppDeps({
    config: {
      host: '127.0.0.1',
      port: 80,
      token: TEST_TOKEN,
      dataDir: path.join(dir, 'loupe'),
      liveWindowMs: DEFAULT_LIVE_WINDOW_MINUTES * 60_000,
      allowedHostNames: ['127.0.0.1', 'localhost', '[::1]'],
      lanAddresses: [],
      webRoot: null,
      demo: false,
      serverLimits: SERVER_LIMITS,
      ...overrides,
    },
    opencode: openOpenCode(db),
    clock: fixedClock(TEST_NOW),
    // No explicit OpenCode server and no credentials; git with this process's PATH and an isolated HOME.
    opencodeServer: { url: null, username: null, password: null },
    gitEnv: { PATH: process.env.PATH ?? '', HOME: dir },
    searchIndex: { mode: options.searchIndex ?? 'manual', pollMs: 100, pipelineMinRows: options.pipelineMinRows },
  })
  const deps: TestDeps = Object.assign(app, {
    dir,
    cleanup() {
      // A reclaim replaces the search index and reopens the handle: close what deps hold now.
      void deps.searchIndex.close()
      deps.opencode.db.close()
      deps.loupeDb.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  })
  return deps
}

export const createCaller = createCallerFactory(appRouter)

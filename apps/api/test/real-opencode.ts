import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { apiClient, ensureOpencode, isolatedEnv, startOpencode, writeConfig, type ApiClient } from '../../../tools/opencode-real/generate.mjs'
import { OPENCODE_VERSION } from '../../../tools/opencode-serve.js'

export interface RealOpenCode {
  url: string
  api: ApiClient
  /** HOME, XDG dirs and the log of this server. */
  work: string
  stop(): Promise<void>
}

/**
 * Start the real `opencode serve` on `dbFile` (OPENCODE_DB), with HOME and every XDG dir isolated
 * under a fresh temp dir and no model configured beyond an unreachable mock: enough to read.
 * `stop` ends only this process, by its pid.
 */
export async function startRealOpenCode(dbFile: string): Promise<RealOpenCode> {
  const cache = process.env.OPENCODE_REAL_CACHE ?? path.join(os.homedir(), '.cache', 'opencode-real')
  const bin = ensureOpencode({ cache, version: OPENCODE_VERSION })
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-opencode-'))
  const configPath = path.join(work, 'config', 'opencode', 'opencode.json')
  writeConfig(configPath, 'http://127.0.0.1:9/v1')
  const env = { ...isolatedEnv(work, configPath), OPENCODE_DB: path.resolve(dbFile) }
  const cwd = path.join(work, 'cwd')
  fs.mkdirSync(cwd)
  const server = await startOpencode({ bin, env, cwd, logFile: path.join(work, 'opencode.log') })
  return {
    url: server.url,
    api: apiClient(server.url),
    work,
    stop: async () => {
      await server.stop()
      fs.rmSync(work, { recursive: true, force: true })
    },
  }
}

/**
 * Make the directories a demo database names real, so OpenCode resolves them as it would on the
 * user's machine: each git project a repository whose cached id (`.git/opencode`) is the project id,
 * every session directory present.
 */
export function materializeDirectories(dbFile: string): void {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true })
  try {
    for (const p of db.prepare(`SELECT id, worktree FROM project WHERE id != 'global'`).all() as { id: string; worktree: string }[]) {
      fs.mkdirSync(p.worktree, { recursive: true })
      execFileSync('git', ['init', '-q'], { cwd: p.worktree, env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: p.worktree } })
      fs.writeFileSync(path.join(p.worktree, '.git', 'opencode'), p.id)
    }
    for (const s of db.prepare('SELECT DISTINCT directory FROM session').all() as { directory: string }[]) fs.mkdirSync(s.directory, { recursive: true })
  } finally {
    db.close()
  }
}

import { spawn } from 'node:child_process'
import path from 'node:path'
import Database from 'better-sqlite3'

const BIN = path.resolve(import.meta.dirname, '../bin/loupe.mjs')

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** The CLI as a user runs it: a child process in a clean directory, HOME and XDG dirs isolated. */
export function runLoupe(cwd: string, args: string[], options: { shellPrefix?: string; onStderr?: (line: string, kill: () => void) => void; env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<Run> {
  const env = { PATH: process.env.PATH ?? '', ...options.env, HOME: cwd, XDG_DATA_HOME: path.join(cwd, 'xdg-data'), XDG_STATE_HOME: path.join(cwd, 'xdg-state'), XDG_CONFIG_HOME: path.join(cwd, 'xdg-config'), XDG_CACHE_HOME: path.join(cwd, 'xdg-cache') }
  const child = options.shellPrefix
    ? spawn('bash', ['-c', `${options.shellPrefix}; exec "$0" "$@"`, process.execPath, BIN, ...args], { cwd, env })
    : spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], { cwd, env })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    for (const line of d.toString().split('\n')) if (line) options.onStderr?.(line, () => child.kill('SIGKILL'))
  })
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

/** Integrity and row counts per table: a reclaim must keep all of them. */
export const rowCounts = (file: string) => {
  const db = new Database(file, { readonly: true })
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[]
  const counts = Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get()]))
  const integrity = db.pragma('integrity_check', { simple: true })
  db.close()
  return { integrity, counts }
}


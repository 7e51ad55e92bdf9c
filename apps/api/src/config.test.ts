import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../test/harness.js'
import { ConfigError, loadConfig, MIN_TOKEN_CHARS } from './config.js'

const env = { HOME: '/home/nobody' }

describe('loadConfig', () => {
  it.each(['1', 'x'.repeat(MIN_TOKEN_CHARS - 1)])('refuses a LOUPE_TOKEN of %s with what to do instead', (token) => {
    expect(() => loadConfig([], { ...env, LOUPE_TOKEN: token })).toThrow(ConfigError)
    expect(() => loadConfig([], { ...env, LOUPE_TOKEN: token })).toThrow(new RegExp(`LOUPE_TOKEN must be at least 24 characters long \\(it has ${token.length}\\).*openssl rand`))
  })

  it('takes a LOUPE_TOKEN of 24 characters or more, and none at all', () => {
    expect(loadConfig([], { ...env, LOUPE_TOKEN: 'x'.repeat(MIN_TOKEN_CHARS) }).token).toBe('x'.repeat(MIN_TOKEN_CHARS))
    expect(loadConfig([], env).token).toBeNull()
  })
})

describe('main.ts', () => {
  it('stops at start with exit code 2 and the message when LOUPE_TOKEN is short, before opening anything', () => {
    const dir = tempDir()
    try {
      const isolated: Record<string, string> = { HOME: dir, LOUPE_TOKEN: '1' }
      for (const name of ['DATA', 'CONFIG', 'STATE', 'CACHE']) isolated[`XDG_${name}_HOME`] = path.join(dir, name.toLowerCase())
      const cwd = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', '--no-open', '--port', '0'], { cwd, env: isolated, encoding: 'utf8', timeout: 30_000 })
      expect(run.status).toBe(2)
      expect(run.stderr).toMatch(/LOUPE_TOKEN must be at least 24 characters long \(it has 1\)/)
      expect(run.stdout).toBe('')
      expect(fs.readdirSync(dir)).toEqual([])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { ensureRealFixture } from '../../../tools/fixtures.mjs'
import { startLoupeServer } from '../../../tools/loupe-server.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string
    apiToken: string
  }
}

/** One real api for the web tests: a copied real-OpenCode DB, isolated HOME/XDG, a free port. */
export default async function setup(project: TestProject) {
  const fixture = await ensureRealFixture()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-web-test-'))
  const db = path.join(dir, 'opencode.db')
  fs.copyFileSync(path.join(fixture, 'opencode.db'), db)
  const server = await startLoupeServer({ db, dir, token: 'web-test-token-at-least-24-chars' })
  project.provide('apiUrl', server.baseURL)
  project.provide('apiToken', server.token)
  return async () => {
    await server.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureRealFixture } from '../../tools/fixtures.mjs'
import { repoRoot, startLoupeServer } from '../../tools/loupe-server.mjs'
import { addLongSession } from './long-session.js'

export const LONG_SESSION_TITLE = 'Long transcript (paging demo)'
/** 40 copies of the real image session: 80 images over 120 assistant messages, so the gallery pages. */
export const GALLERY_SESSION_TITLE = 'Diagram review (gallery paging)'

export interface LoupeServer {
  baseURL: string
  token: string
  pid: number
  dir: string
  longSessionID: string
  stop: () => Promise<void>
}

export interface StartOptions {
  /** Messages in the extra long session built from a real one. */
  longMessages?: number
  /** Stream the server's output to this process's stderr. */
  verbose?: boolean
}

/**
 * Start the real Loupe server on a free loopback port over a copy of the real-OpenCode fixture
 * (plus one long session), with HOME and every XDG dir isolated in a temp dir.
 */
export async function startLoupe(options: StartOptions = {}): Promise<LoupeServer> {
  const webIndex = path.join(repoRoot, 'apps', 'web', 'dist', 'index.html')
  if (!fs.existsSync(webIndex)) throw new Error('apps/web/dist is missing: build the web app first (npx turbo run build --filter=@loupe/web).')
  const fixture = await ensureRealFixture()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-'))
  try {
    const db = path.join(dir, 'opencode.db')
    fs.copyFileSync(path.join(fixture, 'opencode.db'), db)
    const long = addLongSession(db, { sourceTitle: 'Slugify helper in slug-2.js', messages: options.longMessages ?? 400, title: LONG_SESSION_TITLE })
    addLongSession(db, { sourceTitle: 'Screenshot vs architecture diagram', messages: 160, title: GALLERY_SESSION_TITLE })
    const server = await startLoupeServer({ db, dir, token: 'e2e-token-at-least-24-chars', verbose: options.verbose ?? false })
    const stop = async () => {
      await server.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    }
    return { baseURL: server.baseURL, token: server.token, pid: server.pid, dir, longSessionID: long.id, stop }
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

// Installs the workspace's npm dependencies when they are missing or stale (no network otherwise).
// Used by `npm start`, `npm test`, `npm run demo` and `npm run bench` on a fresh clone.
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const stampFile = path.join(root, 'node_modules', '.loupe-install-stamp')

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options, env: { ...process.env, ...options.env } })
  if (result.error) throw result.error
  return result.status ?? 1
}

function wantedStamp() {
  const lock = path.join(root, 'package-lock.json')
  const hash = crypto.createHash('sha256')
  hash.update(process.version.split('.')[0])
  hash.update(fs.existsSync(lock) ? fs.readFileSync(lock) : 'no-lock')
  return hash.digest('hex')
}

export const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0

/** apt-get install when running as root; otherwise say what to install. Returns false on failure. */
export function aptInstall(packages, { required = true } = {}) {
  const fail = (message) => {
    console.error(message)
    if (required) process.exit(1)
    return false
  }
  if (!isRoot || !has('apt-get')) return fail(`[loupe] please install: ${packages.join(' ')} (apt-get install -y ${packages.join(' ')})`)
  console.error(`[loupe] installing ${packages.join(', ')} with apt-get…`)
  const env = { DEBIAN_FRONTEND: 'noninteractive' }
  if (run('apt-get', ['update', '-qq'], { env }) !== 0 || run('apt-get', ['install', '-y', '-qq', ...packages], { env }) !== 0) {
    return fail('[loupe] apt-get failed (see above).')
  }
  return true
}

export function ensureDependencies() {
  const wanted = wantedStamp()
  const have = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : ''
  if (have === wanted) return
  const hasLock = fs.existsSync(path.join(root, 'package-lock.json'))
  console.error(`[loupe] installing dependencies (npm ${hasLock ? 'ci' : 'install'}; the first time compiles SQLite, about 2 minutes)…`)
  const env = { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', TURBO_TELEMETRY_DISABLED: '1' }
  const status = run('npm', [hasLock ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error'], { env })
  if (status !== 0) {
    console.error('[loupe] npm could not install the dependencies (see above). Check your network and Node version (20.19+).')
    process.exit(status)
  }
  fs.writeFileSync(stampFile, wanted + '\n')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureDependencies()

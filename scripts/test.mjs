// `npm test`: install what is missing (npm packages; Chromium and ripgrep via apt-get when root),
// generate the real OpenCode fixture once, then run every test: domain, api, web and e2e.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { ensureDependencies, run } from './ensure.mjs'

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0

function aptInstall(packages) {
  if (!isRoot || !has('apt-get')) {
    console.error(`[loupe] please install: ${packages.join(' ')} (apt-get install -y ${packages.join(' ')})`)
    process.exit(1)
  }
  console.error(`[loupe] installing ${packages.join(', ')} with apt-get…`)
  const env = { DEBIAN_FRONTEND: 'noninteractive' }
  if (run('apt-get', ['update', '-qq'], { env }) !== 0 || run('apt-get', ['install', '-y', '-qq', ...packages], { env }) !== 0) {
    console.error('[loupe] apt-get failed (see above).')
    process.exit(1)
  }
}

process.env.TURBO_TELEMETRY_DISABLED = '1'
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1'
ensureDependencies()
const missing = [...(fs.existsSync(CHROMIUM) ? [] : ['chromium']), ...(has('rg') ? [] : ['ripgrep'])]
if (missing.length) aptInstall(missing)

if (run(process.execPath, ['tools/fixtures.mjs']) !== 0) {
  console.error('[loupe] could not generate the real OpenCode fixture (see above).')
  process.exit(1)
}
const status = run('npx', ['turbo', 'run', 'typecheck', 'lint', 'test', 'e2e', '--concurrency=2', '--continue', ...process.argv.slice(2)])
process.exit(status)

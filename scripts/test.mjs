// `npm test`: install what is missing (npm packages; Chromium and ripgrep via apt-get when root),
// generate the real OpenCode fixture once, then run every test: domain, api, web and e2e.
import fs from 'node:fs'
import { aptInstall, ensureDependencies, has, run } from './ensure.mjs'

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

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

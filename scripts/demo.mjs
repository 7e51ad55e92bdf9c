// `npm run demo`: install what is missing, build the web app, then walk Loupe in Chromium and
// write screenshots, plus a video when an ffmpeg can be found for Playwright to record with.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { aptInstall, ensureDependencies, has, root, run } from './ensure.mjs'

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/**
 * Playwright records video only through an ffmpeg at `<browsers path>/ffmpeg-<revision>/`, which it
 * would download. Loupe never downloads browser builds, so it points a browsers path of its own
 * (under .cache, leaving the user's ~/.cache/ms-playwright alone) at the system's ffmpeg instead.
 */
function videoBrowsersPath() {
  if (!has('ffmpeg')) aptInstall(['ffmpeg'], { required: false })
  if (!has('ffmpeg')) return undefined
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'playwright-core', 'browsers.json'), 'utf8'))
  const revision = manifest.browsers.find((browser) => browser.name === 'ffmpeg')?.revision
  if (!revision || process.platform !== 'linux') return undefined
  const dir = path.join(root, '.cache', 'playwright')
  const link = path.join(dir, `ffmpeg-${revision}`, 'ffmpeg-linux')
  const system = fs.realpathSync(execFileSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).trim())
  fs.mkdirSync(path.dirname(link), { recursive: true })
  fs.rmSync(link, { force: true })
  fs.symlinkSync(system, link)
  return dir
}

process.env.TURBO_TELEMETRY_DISABLED = '1'
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1'
ensureDependencies()
if (!fs.existsSync(CHROMIUM)) aptInstall(['chromium'])
if (run('npx', ['turbo', 'run', 'build', '--filter=@loupe/web', '--output-logs=errors-only']) !== 0) process.exit(1)
const browsers = videoBrowsersPath()
if (!browsers) console.error('[loupe] no ffmpeg: the demo writes screenshots only (apt-get install -y ffmpeg for a video).')
const env = browsers ? { PLAYWRIGHT_BROWSERS_PATH: browsers } : {}
process.exit(run('npm', ['run', 'demo', '-w', '@loupe/e2e', '--', ...process.argv.slice(2)], { env }))

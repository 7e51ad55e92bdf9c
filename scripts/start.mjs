// `npm start [-- flags]`: install what is missing, build the web app, start Loupe.
import { ensureDependencies, root, run } from './ensure.mjs'

process.env.TURBO_TELEMETRY_DISABLED = '1'
ensureDependencies()
const built = run('npx', ['turbo', 'run', 'build', '--filter=@loupe/web', '--output-logs=errors-only'])
if (built !== 0) {
  console.error('[loupe] the web app did not build (see above).')
  process.exit(built)
}
const status = run(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts', ...process.argv.slice(2)], { cwd: root })
process.exit(status)

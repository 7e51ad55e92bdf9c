// `npm start [-- flags]`: install what is missing, build the web app and the api's JavaScript, start Loupe.
import { spawn } from 'node:child_process'
import os from 'node:os'
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from '../tools/server-launch.mjs'
import { ensureDependencies, root, run } from './ensure.mjs'

process.env.TURBO_TELEMETRY_DISABLED = '1'
ensureDependencies()
const built = run('npx', ['turbo', 'run', 'build', '--filter=@loupe/web', '--filter=@loupe/api', '--output-logs=errors-only'])
if (built !== 0) {
  console.error('[loupe] the web app or the api did not build (see above).')
  process.exit(built)
}
// Not spawnSync: a signal sent to this launcher (by npm, a process manager, `kill`) must reach
// the server, which then closes its databases and exits.
// The built server on plain node: no TypeScript loader at runtime.
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env: { ...process.env, ...SERVER_ENV } })
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + os.constants.signals[signal] : 1)))

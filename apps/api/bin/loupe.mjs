#!/usr/bin/env node
// The `loupe` command: `loupe [serve] [flags]` starts the web app, `loupe mcp` serves MCP on stdio,
// any other command runs the CLI, which is handed argv and the environment and reads neither itself.
// The packed package runs the JavaScript build (dist/) on plain node; a checkout runs the
// TypeScript source through tsx, so an edit never meets a stale build (LOUPE_RUN=dist|source picks).
import fs from 'node:fs'

const here = new URL('..', import.meta.url)
const fromSource = process.env.LOUPE_RUN === 'source' ||
  (process.env.LOUPE_RUN !== 'dist' && fs.existsSync(new URL('src/cli/loupe.ts', here)))
if (fromSource) {
  const { register } = await import('tsx/esm/api')
  register()
}
const entry = (dist, src) => new URL(fromSource ? src : dist, here).href

const command = process.argv[2]
if (command === 'mcp') {
  // Speaks the protocol on stdout for as long as its client keeps it open.
  await import(entry('dist/mcp-main.mjs', 'src/mcp-main.ts'))
} else if (command === undefined || command === 'serve' || (command.startsWith('-') && command !== '--help' && command !== '-h')) {
  if (command === 'serve') process.argv.splice(2, 1)
  await import(entry('dist/main.mjs', 'src/main.ts'))
} else {
  const { runCli } = await import(entry('dist/cli.mjs', 'src/cli/loupe.ts'))
  const code = await runCli(process.argv.slice(2), process.env, { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) })
  process.stdout.write('', () => process.exit(code))
}

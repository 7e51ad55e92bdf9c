#!/usr/bin/env node
// The `loupe` command. The api ships as TypeScript run by tsx for now, so this registers tsx and
// hands argv and the environment to the CLI, which reads neither itself.
import { register } from 'tsx/esm/api'

register()
// `loupe mcp` speaks the protocol on stdout for as long as its client keeps it open.
if (process.argv[2] === 'mcp') {
  await import('../src/mcp-main.ts')
} else {
  const { runCli } = await import('../src/cli/loupe.ts')
  const code = await runCli(process.argv.slice(2), process.env, { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) })
  process.stdout.write('', () => process.exit(code))
}

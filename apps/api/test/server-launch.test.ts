import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startLoupeServer } from '../../../tools/loupe-server.mjs'
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from '../../../tools/server-launch.mjs'
import { copyDb, realFixture, tempDir } from './harness.js'

const root = path.resolve(import.meta.dirname, '../../..')

describe('how the launchers start the server', () => {
  it('the Docker image sets the same environment and runs the same entry point with the same flags', () => {
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8')
    // The image's final stage: what the container runs.
    const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(final).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, 'm'))
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(final)![1]!) as string[]
    expect(cmd.slice(0, 2 + SERVER_NODE_FLAGS.length)).toEqual(['node', ...SERVER_NODE_FLAGS, SERVER_ENTRY])
    // The build stage builds that entry point.
    expect(dockerfile).toMatch(/turbo run build .*--filter=@loupe\/api/)
  })

  // Linux only (/proc): the server the tests and benches measure runs as the launchers start it.
  // (Its 'source' mode: building dist/ here would race loupe.dist.test.ts, which runs the build it made.)
  it.runIf(process.platform === 'linux')('the test server runs with that environment and those flags', async () => {
    const dir = tempDir('loupe-launch-')
    try {
      const server = await startLoupeServer({ db: copyDb((await realFixture()).db, dir), dir })
      try {
        const environ = fs.readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0')
        for (const [name, value] of Object.entries(SERVER_ENV)) expect(environ).toContain(`${name}=${value}`)
        const argv = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')
        expect(argv.slice(1, 1 + SERVER_NODE_FLAGS.length)).toEqual(SERVER_NODE_FLAGS)
      } finally {
        await server.stop()
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, realFixture, tempDir } from '../../test/harness.js'
import { createLanPair, NETNS_ENABLED, type LanPair } from '../../test/netns.js'
import { SERVER_LIMITS } from './server-limits.js'

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

interface ProbeReport {
  owner: { wrong: number[]; valid: number; handoff: number; offsiteLocation: string | null }
  slow: { otherDevice: number; sameDevice: number | string; answered408: number; closedWithoutAnswer: number; stillOpen: number; closedAfterMs: Array<number | null> }
}

const collect = (child: ChildProcess) => {
  let out = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  return () => out
}

// The real `npm start` path (main.ts, SERVER_LIMITS, --host 0.0.0.0) in one namespace, probed from another.
describe.skipIf(!NETNS_ENABLED)('Loupe on the LAN, probed from another network namespace (LOUPE_NETNS_TEST=1)', () => {
  const token = randomBytes(24).toString('base64url')
  const SOCKETS = 40
  let lan: LanPair | undefined
  let dir = ''
  let server: ChildProcess | undefined
  let serverOutput = () => ''

  beforeAll(async () => {
    dir = tempDir()
    const db = copyDb((await realFixture()).db, fs.mkdtempSync(path.join(dir, 'db-')))
    lan = createLanPair()
    const env: Record<string, string> = { HOME: path.join(dir, 'home'), LOUPE_TOKEN: token }
    for (const name of ['DATA', 'CONFIG', 'STATE', 'CACHE']) env[`XDG_${name}_HOME`] = path.join(dir, `xdg-${name.toLowerCase()}`)
    fs.mkdirSync(env.HOME!, { recursive: true })
    const args = ['--import', 'tsx', 'src/main.ts', '--db', db, '--host', '0.0.0.0', '--port', '4455', '--no-open', '--data-dir', path.join(dir, 'loupe')]
    server = lan.spawnIn(lan.server, process.execPath, args, { cwd: apiDir, env })
    serverOutput = collect(server)
  })

  afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve))
      process.kill(server.pid, 'SIGTERM')
      await exited
    }
    lan?.remove()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('limits wrong tokens, keeps the hand-off on its origin, and closes slowloris sockets within 30 s', async () => {
    const input = { host: lan!.serverAddress, port: 4455, token, other: lan!.otherClientAddress, sockets: SOCKETS, byteEveryMs: 5000 }
    const probe = lan!.spawnIn(lan!.client, process.execPath, [path.join(apiDir, 'test', 'lan-probe.mjs'), JSON.stringify(input)], {})
    const output = collect(probe)
    const code = await new Promise((resolve) => probe.once('exit', resolve))
    expect(code, `${output()}\n--- server:\n${serverOutput()}`).toBe(0)
    const report = JSON.parse(output().trim().split('\n').at(-1)!) as ProbeReport

    expect(report.owner.wrong.slice(0, 20)).toEqual(Array(20).fill(401))
    expect(report.owner.wrong.slice(20)).toEqual(Array(5).fill(429))
    expect(report.owner.valid).toBe(200)
    expect(report.owner.handoff).toBe(302)
    expect(report.owner.offsiteLocation).toBe('/evil.com/x')

    const { slow } = report
    expect(slow.otherDevice).toBe(200)
    expect(slow.sameDevice).not.toBe(200)
    expect(slow.stillOpen).toBe(0)
    expect(slow.closedWithoutAnswer).toBeGreaterThanOrEqual(SOCKETS - SERVER_LIMITS.connectionsPerAddress)
    expect(slow.answered408 + slow.closedWithoutAnswer).toBe(SOCKETS)
    expect(Math.max(...slow.closedAfterMs.map((ms) => ms ?? Infinity))).toBeLessThan(30_000)
  }, 120_000)
})

import { execFileSync, spawn, type ChildProcess } from 'node:child_process'

/** Network-namespace tests need root and `ip netns`; they run only when LOUPE_NETNS_TEST=1. */
export const NETNS_ENABLED = process.env.LOUPE_NETNS_TEST === '1'

export interface LanPair {
  /** The namespace Loupe serves from, and its address on the link. */
  server: string
  serverAddress: string
  /** The namespace of the other device. */
  client: string
  clientAddress: string
  /** A second address in `client`, as another device on the same LAN. */
  otherClientAddress: string
  /** Run `command` inside `ns`, with only PATH and `env` in its environment. */
  spawnIn(ns: string, command: string, args: string[], options: { cwd?: string; env?: Record<string, string> }): ChildProcess
  /** Delete both namespaces (and with them the link). */
  remove(): void
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] })

/**
 * Two namespaces of this process's own, joined by one veth link (10.200.1.1; 10.200.1.2 and .3):
 * nothing is added to the machine's own network, and a server bound to 0.0.0.0 inside
 * `server` is reachable only from `client`.
 */
export function createLanPair(): LanPair {
  const tag = String(process.pid % 100_000)
  const server = `loupe-srv-${tag}`
  const client = `loupe-cli-${tag}`
  const remove = () => {
    for (const ns of [server, client]) {
      try {
        ip('netns', 'del', ns)
      } catch {
        /* not created */
      }
    }
  }
  try {
    ip('netns', 'add', server)
    ip('netns', 'add', client)
    ip('link', 'add', `ls${tag}`, 'netns', server, 'type', 'veth', 'peer', 'name', `lc${tag}`, 'netns', client)
    for (const [ns, dev, address] of [[server, `ls${tag}`, '10.200.1.1'], [client, `lc${tag}`, '10.200.1.2']] as const) {
      ip('-n', ns, 'addr', 'add', `${address}/29`, 'dev', dev)
      ip('-n', ns, 'link', 'set', dev, 'up')
      ip('-n', ns, 'link', 'set', 'lo', 'up')
    }
    // A second device on the client's side (added after .2, so .2 stays the default source).
    ip('-n', client, 'addr', 'add', '10.200.1.3/29', 'dev', `lc${tag}`)
  } catch (error) {
    remove()
    throw error
  }
  return {
    server,
    serverAddress: '10.200.1.1',
    client,
    clientAddress: '10.200.1.2',
    otherClientAddress: '10.200.1.3',
    spawnIn(ns, command, args, options) {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.env }
      return spawn('ip', ['netns', 'exec', ns, command, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    },
    remove,
  }
}

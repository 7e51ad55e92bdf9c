import type { Server, ServerOptions } from 'node:http'
import type { Socket } from 'node:net'

/** How long a peer may hold a socket without finishing what it owes, and how many it may hold. */
export interface ServerLimits {
  /** From the first byte (or the connection) to the end of the headers: slowloris sends them a byte at a time. */
  headersTimeoutMs: number
  /** To the end of the request body. Never limits an answer: subscriptions (SSE) stay open. */
  requestTimeoutMs: number
  /** An idle keep-alive socket between requests. */
  keepAliveTimeoutMs: number
  /** Node checks the two timeouts above only this often, so a socket may outlive them by this much. */
  checkIntervalMs: number
  /** Open sockets per remote address, except this machine's own 127.0.0.1 and ::1. */
  connectionsPerAddress: number
}

/**
 * A socket that trickles its headers is closed 10–12 s after it opened, within 30 s in every case.
 * 32 sockets per address leave room for a browser's 6 per host across several tabs and devices
 * behind one NAT, while a single peer cannot use up the process's file descriptors.
 */
export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 2_000,
  connectionsPerAddress: 32,
}

/** The Fastify options that carry `limits` to Node's HTTP server. */
export function fastifyServerOptions(limits: ServerLimits): { http: ServerOptions; requestTimeout: number; keepAliveTimeout: number } {
  return {
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    // Fastify sets these two on the server after creating it, over whatever `http` said.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  }
}

// Only the owner's own machine is exempt: other 127/8 sources are rare and may be capped like a LAN peer.
const OWN_MACHINE = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** Destroy a new socket at once when its remote address already holds `max` open ones. */
export function capConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress
    if (address === undefined || OWN_MACHINE.has(address)) return
    const count = open.get(address) ?? 0
    if (count >= max) {
      socket.destroy()
      return
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

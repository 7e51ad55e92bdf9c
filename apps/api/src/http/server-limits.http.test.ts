import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDeps, realFixture, TEST_TOKEN, type TestDeps } from '../../test/harness.js'
import { startTestServer, type TestServer } from '../../test/server.js'
import { SERVER_LIMITS, type ServerLimits } from './server-limits.js'

interface RawSocket {
  socket: net.Socket
  /** Everything the server sent, as text. */
  received(): string
  /** Resolves once the socket has closed, with how long after opening. */
  closed: Promise<number>
  connected: Promise<void>
}

function openSocket(port: number, localAddress = '127.0.0.1'): RawSocket {
  const opened = performance.now()
  const socket = net.connect({ host: '127.0.0.1', port, localAddress })
  let text = ''
  socket.on('data', (chunk) => (text += chunk.toString('latin1')))
  socket.on('error', () => {})
  return {
    socket,
    received: () => text,
    closed: new Promise((resolve) => socket.once('close', () => resolve(performance.now() - opened))),
    connected: new Promise((resolve) => socket.once('connect', () => resolve())),
  }
}

const get = (port: number) => `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`

/** Resolves with the first status line the server sends, or null if it closes without one. */
function statusLine(raw: RawSocket): Promise<string | null> {
  return new Promise((resolve) => {
    const check = () => {
      const line = /^HTTP\/1\.1 \d{3}[^\r]*/.exec(raw.received())?.[0]
      if (line) resolve(line)
    }
    raw.socket.on('data', check)
    void raw.closed.then(() => resolve(/^HTTP\/1\.1 \d{3}[^\r]*/.exec(raw.received())?.[0] ?? null))
  })
}

function serveWith(limits: ServerLimits) {
  const state: { deps?: TestDeps; server?: TestServer } = {}
  beforeAll(async () => {
    state.deps = await createTestDeps((await realFixture()).db, { serverLimits: limits })
    state.server = await startTestServer(state.deps)
  })
  afterAll(async () => {
    await state.server?.close()
    state.deps?.cleanup()
  })
  return () => {
    if (!state.server) throw new Error('read the server inside a test')
    return state.server
  }
}

describe('SERVER_LIMITS', () => {
  it('closes a socket that trickles its headers within 30 s, and lets a browser hold its 6 sockets per host', () => {
    expect(SERVER_LIMITS.headersTimeoutMs + SERVER_LIMITS.checkIntervalMs).toBeLessThanOrEqual(30_000)
    expect(SERVER_LIMITS.requestTimeoutMs + SERVER_LIMITS.checkIntervalMs).toBeLessThanOrEqual(30_000)
    expect(SERVER_LIMITS.connectionsPerAddress).toBeGreaterThanOrEqual(6)
  })
})

describe('buildApp timeouts', () => {
  // Short limits, so each case ends in about a second; the defaults are the same code path.
  const limits: ServerLimits = { headersTimeoutMs: 1000, requestTimeoutMs: 1500, keepAliveTimeoutMs: 500, checkIntervalMs: 250, connectionsPerAddress: 32 }
  const server = serveWith(limits)
  const bound = limits.requestTimeoutMs + limits.checkIntervalMs + 1000

  it('answers 408 and closes a socket that sends its headers a byte at a time, while serving others', async () => {
    const slow = openSocket(server().port)
    const request = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server().port}\r\nX-Pad: ${'a'.repeat(200)}\r\n\r\n`
    let sent = 0
    const trickle = setInterval(() => slow.socket.write(request[sent++] ?? 'a'), 50)
    try {
      expect((await server().fetch('/healthz')).status).toBe(200)
      const closedAfter = await Promise.race([slow.closed, new Promise<number>((r) => setTimeout(() => r(Infinity), bound))])
      expect(closedAfter).toBeLessThan(bound)
      expect(sent).toBeLessThan(request.length)
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408/)
    } finally {
      clearInterval(trickle)
      slow.socket.destroy()
    }
  })

  it('closes a socket that never sends a byte, and one that sends half a body', async () => {
    const silent = openSocket(server().port)
    const halfBody = openSocket(server().port)
    halfBody.socket.write(`POST /trpc/shares.create HTTP/1.1\r\nHost: 127.0.0.1:${server().port}\r\nAuthorization: Bearer ${TEST_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`)
    const deadline = new Promise<number>((r) => setTimeout(() => r(Infinity), bound))
    expect(await Promise.race([silent.closed, deadline])).toBeLessThan(bound)
    expect(await Promise.race([halfBody.closed, deadline])).toBeLessThan(bound)
    expect(silent.received()).toMatch(/^HTTP\/1\.1 408/)
  })

  it('closes an idle keep-alive socket after its answer', async () => {
    const idle = openSocket(server().port)
    idle.socket.write(get(server().port))
    expect(await statusLine(idle)).toBe('HTTP/1.1 200 OK')
    expect(await Promise.race([idle.closed, new Promise<number>((r) => setTimeout(() => r(Infinity), bound))])).toBeLessThan(bound)
  })

  it('keeps a subscription (SSE) open past every timeout', async () => {
    const controller = new AbortController()
    const res = await server().fetch('/trpc/events.pruned', { signal: controller.signal, headers: { accept: 'text/event-stream' } })
    expect(res.status).toBe(200)
    let ended = false
    const reading = (async () => {
      try {
        for await (const _chunk of res.body as unknown as AsyncIterable<Uint8Array>) { /* drain */ }
        ended = true
      } catch {
        ended = controller.signal.aborted ? false : true
      }
    })()
    await new Promise((r) => setTimeout(r, limits.requestTimeoutMs + limits.checkIntervalMs * 2))
    expect(ended).toBe(false)
    controller.abort()
    await reading
  })
})

describe('buildApp socket cap per remote address', () => {
  const server = serveWith({ ...SERVER_LIMITS, connectionsPerAddress: 4 })

  it('closes sockets over the cap from an address other than 127.0.0.1, and frees a place when one closes', async () => {
    const port = server().port
    const held = Array.from({ length: 4 }, () => openSocket(port, '127.0.0.2'))
    await Promise.all(held.map((s) => s.connected))
    for (const s of held) s.socket.write(get(port))
    expect(await Promise.all(held.map(statusLine))).toEqual(Array(4).fill('HTTP/1.1 200 OK'))

    const over = openSocket(port, '127.0.0.2')
    over.socket.write(get(port))
    expect(await statusLine(over)).toBeNull()

    // This machine's own address is never capped.
    const local = Array.from({ length: 8 }, () => openSocket(port, '127.0.0.1'))
    for (const s of local) s.socket.write(get(port))
    expect(await Promise.all(local.map(statusLine))).toEqual(Array(8).fill('HTTP/1.1 200 OK'))

    held[0]!.socket.destroy()
    await held[0]!.closed
    await new Promise((r) => setTimeout(r, 50))
    const again = openSocket(port, '127.0.0.2')
    again.socket.write(get(port))
    expect(await statusLine(again)).toBe('HTTP/1.1 200 OK')
    for (const s of [...held, ...local, again]) s.socket.destroy()
  })
})

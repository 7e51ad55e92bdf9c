// Run inside another network namespace against a Loupe serving the LAN; prints one JSON report.
//   node lan-probe.mjs '{"host":"10.200.1.1","port":4455,"token":"…","other":"10.200.1.3","sockets":40,"byteEveryMs":5000}'
import { request } from 'node:http'
import net from 'node:net'

const options = JSON.parse(process.argv[2] ?? '{}')
const { host, port, token } = options
const hostHeader = `${host}:${port}`

/** One request, the path sent exactly as given. */
const send = (path, headers = {}, localAddress) =>
  new Promise((resolve, reject) => {
    const req = request({ host, port, path, headers, localAddress, agent: false }, (res) => {
      res.resume()
      resolve({ status: res.statusCode, location: res.headers.location ?? null })
    })
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')))
    req.on('error', reject).end()
  })

async function waitForServer() {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    try {
      if ((await send('/healthz')).status === 200) return
    } catch {
      /* not listening yet */
    }
  }
  throw new Error('Loupe did not answer /healthz within 60 s')
}

async function ownerTokens() {
  const wrong = []
  for (let i = 0; i < 25; i++) wrong.push((await send('/trpc/storage.info', { authorization: 'Bearer wrong-token-of-some-length' })).status)
  const valid = (await send('/trpc/storage.info', { authorization: `Bearer ${token}` })).status
  const handoff = await send(`/sessions?token=${token}`)
  const offsite = await send(`/.//evil.com/x?token=${token}`)
  return { wrong, valid, handoff: handoff.status, offsiteLocation: offsite.location }
}

/** Slowloris: each socket sends one byte of a request's headers every `byteEveryMs`. */
async function slowloris(count, byteEveryMs) {
  const started = performance.now()
  const line = `GET /healthz HTTP/1.1\r\nHost: ${hostHeader}\r\nX-Pad: ${'a'.repeat(4000)}`
  const sockets = Array.from({ length: count }, () => {
    const socket = net.connect({ host, port })
    const state = { received: '', sent: 0, closedAfterMs: null }
    socket.on('data', (chunk) => (state.received += chunk.toString('latin1')))
    socket.on('error', () => {})
    const timer = setInterval(() => socket.writable && socket.write(line[state.sent++] ?? 'a'), byteEveryMs)
    socket.once('connect', () => socket.write(line[state.sent++]))
    state.closed = new Promise((resolve) => socket.once('close', () => {
      clearInterval(timer)
      state.closedAfterMs = Math.round(performance.now() - started)
      resolve()
    }))
    return state
  })
  await new Promise((r) => setTimeout(r, 1000))
  // Meanwhile another device on the LAN is served; this one's own new sockets are over its cap.
  const otherDevice = (await send('/healthz', {}, options.other)).status
  const sameDevice = await send('/healthz').then((a) => a.status, (e) => e.code ?? e.message)
  const deadline = new Promise((r) => setTimeout(r, 35_000))
  await Promise.race([Promise.all(sockets.map((s) => s.closed)), deadline])
  return {
    otherDevice,
    sameDevice,
    answered408: sockets.filter((s) => s.received.startsWith('HTTP/1.1 408')).length,
    closedWithoutAnswer: sockets.filter((s) => s.closedAfterMs !== null && s.received === '').length,
    stillOpen: sockets.filter((s) => s.closedAfterMs === null).length,
    closedAfterMs: sockets.map((s) => s.closedAfterMs),
  }
}

await waitForServer()
const owner = await ownerTokens()
const slow = await slowloris(options.sockets, options.byteEveryMs)
process.stdout.write(JSON.stringify({ owner, slow }) + '\n')
process.exit(0)

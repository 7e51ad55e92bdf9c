// Times GET requests against a running Loupe from its own process, as a browser would call it:
//   node bench/http-timer.mjs BASE_URL TOKEN
// Reads lines `N PATH` on stdin. For each it GETs PATH 1 + N times back to back and prints the
// last N requests on one line, each as `client,server` milliseconds (the server's own time from
// its Server-Timing header). The first request after an idle wait is slower (the host wakes the
// server's vCPU). The CLI's (a) timer starts once its statement has arrived and never sees that
// wait, so (b) is timed warm too. One kept-alive node:http connection, because fetch (undici) adds
// time of its own to every request. A failed request prints to stderr and ends the process.
import http from 'node:http'
import readline from 'node:readline'

const [base, token] = process.argv.slice(2)
const url = new URL(base)
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const get = (path) => new Promise((resolve, reject) => {
  http.get({ host: url.hostname, port: url.port, path, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
    res.on('data', () => {})
    const server = Number(/dur=([\d.]+)/.exec(res.headers['server-timing'] ?? '')?.[1] ?? NaN)
    res.on('end', () => (res.statusCode === 200 ? resolve(server) : reject(new Error(`${path}: HTTP ${res.statusCode}`))))
    res.on('error', reject)
  }).on('error', reject)
})

try {
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const [count, path] = line.split(' ')
    const times = []
    for (let i = 0; i <= Number(count); i++) {
      const start = performance.now()
      const server = await get(path)
      if (i > 0) times.push(`${(performance.now() - start).toFixed(4)},${server}`)
    }
    process.stdout.write(`${times.join(' ')}\n`)
  }
} catch (error) {
  process.stderr.write(`${error.message}\n`)
  process.exitCode = 1
} finally {
  agent.destroy()
}

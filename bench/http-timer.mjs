// Times GET requests against a running Loupe from its own process, as a browser would call it:
//   node bench/http-timer.mjs BASE_URL TOKEN RUNS WARMUP PATH...
// One kept-alive node:http connection (fetch/undici adds ~0.5 ms of its own per request on the
// 2-core VM). Prints {"PATH": [ms, ...]} after WARMUP untimed requests per path.
import http from 'node:http'

const [base, token, runs, warmup, ...paths] = process.argv.slice(2)
const url = new URL(base)
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const get = (path) => new Promise((resolve, reject) => {
  http.get({ host: url.hostname, port: url.port, path, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
    res.on('data', () => {})
    res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path}: HTTP ${res.statusCode}`))))
    res.on('error', reject)
  }).on('error', reject)
})

const out = {}
for (const path of paths) {
  const times = []
  for (let i = 0; i < Number(warmup) + Number(runs); i++) {
    const start = performance.now()
    await get(path)
    if (i >= Number(warmup)) times.push(performance.now() - start)
  }
  out[path] = times
}
agent.destroy()
process.stdout.write(JSON.stringify(out))

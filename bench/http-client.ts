import http from 'node:http'

/**
 * GET over one kept-alive connection with node:http. The benchmarks time Loupe's server, and on
 * the 2-core VM `fetch` (undici) spends about 0.5 ms of its own per request: an empty `/healthz`
 * took p50 1.0–1.1 ms through it and 0.5–0.6 ms through this client.
 */
export function createHttpClient(baseURL: string, headers: Record<string, string>) {
  const url = new URL(baseURL)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = (path: string) => new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    http.get({ host: url.hostname, port: url.port, path, agent, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    }).on('error', reject)
  })
  return { get, close: () => agent.destroy() }
}

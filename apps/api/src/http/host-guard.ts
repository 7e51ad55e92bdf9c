import type { FastifyReply, FastifyRequest } from 'fastify'

const splitHost = (value: string): { name: string; port: string } | undefined => {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value)
  return match ? { name: match[1]!.toLowerCase(), port: match[2] ?? '80' } : undefined
}

/**
 * Refuse requests whose Host or Origin is not this server's own: a page on another site that
 * resolves its name to 127.0.0.1 (DNS rebinding) must not reach the owner's data.
 */
export function createHostGuard(allowedNames: readonly string[], configuredPort: number) {
  const allowed = new Set(allowedNames.map((h) => h.toLowerCase()))
  const matches = (value: string, request: FastifyRequest) => {
    const parsed = splitHost(value)
    const port = String(request.socket.localPort ?? configuredPort)
    return parsed !== undefined && allowed.has(parsed.name) && parsed.port === port
  }
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    const host = request.headers.host
    if (!host || !matches(host, request)) {
      void reply.code(403).send({ error: 'forbidden', message: 'Host not allowed: open Loupe at the address it printed.' })
      return false
    }
    const origin = request.headers.origin
    if (origin !== undefined) {
      let ok = false
      try {
        const url = new URL(origin)
        ok = url.protocol === 'http:' && matches(url.host, request)
      } catch {
        ok = false
      }
      if (!ok) {
        void reply.code(403).send({ error: 'forbidden', message: 'Cross-origin requests are refused.' })
        return false
      }
    }
    return true
  }
}

/** Host names a server bound to `host` answers to: loopback names, plus its LAN addresses when serving the LAN. */
export function hostNamesFor(host: string, lanAddresses: readonly string[]): string[] {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]'])
  const bracket = (a: string) => (a.includes(':') ? `[${a}]` : a)
  if (host !== '0.0.0.0' && host !== '::') names.add(bracket(host))
  for (const address of lanAddresses) names.add(bracket(address))
  return [...names]
}

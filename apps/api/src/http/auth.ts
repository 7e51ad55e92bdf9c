import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Constant-time comparison of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b))
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>()
  for (const piece of (header ?? '').split(';')) {
    const eq = piece.indexOf('=')
    if (eq <= 0) continue
    const name = piece.slice(0, eq).trim()
    try {
      out.set(name, decodeURIComponent(piece.slice(eq + 1).trim()))
    } catch {
      /* a malformed cookie is no credential */
    }
  }
  return out
}

export interface OwnerAuth {
  /** Bearer header or the session cookie carries the owner's token. */
  isOwner(request: FastifyRequest): boolean
  /** The `?token=` handoff: set the HttpOnly cookie and redirect to the same URL without it. */
  acceptHandoff(request: FastifyRequest, reply: FastifyReply): boolean
}

/** Browsers share cookies across ports of one host, so the name is derived from this instance's token. */
export function createOwnerAuth(token: string): OwnerAuth {
  const cookieName = `loupe_${createHash('sha256').update(`cookie:${token}`).digest('hex').slice(0, 12)}`
  return {
    isOwner(request) {
      const header = request.headers.authorization
      if (header?.startsWith('Bearer ')) return secretsEqual(header.slice(7).trim(), token)
      const cookie = parseCookies(request.headers.cookie).get(cookieName)
      return cookie !== undefined && secretsEqual(cookie, token)
    },
    acceptHandoff(request, reply) {
      const url = new URL(request.url, 'http://loupe.invalid')
      const offered = url.searchParams.get('token')
      if (offered === null || !secretsEqual(offered, token)) return false
      url.searchParams.delete('token')
      void reply
        .header('set-cookie', `${cookieName}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`)
        .header('cache-control', 'no-store')
        .redirect(url.pathname + url.search, 302)
      return true
    },
  }
}

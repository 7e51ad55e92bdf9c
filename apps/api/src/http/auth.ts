import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../lib/clock.js'
import { createFailureLimiter } from './failure-limiter.js'

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
  /** The `?token=` handoff: set the HttpOnly cookie and redirect to the same path without it. */
  acceptHandoff(request: FastifyRequest, reply: FastifyReply): boolean
  /** Answer a request without the owner's token: 401 (`page` as HTML, else JSON), or 429 after 20 this minute. */
  refuse(request: FastifyRequest, reply: FastifyReply, page?: string): FastifyReply
}

const ORIGIN = 'http://loupe.invalid'

/**
 * `request.url` as a path on this origin, never a way off it: `/.//evil.com/x` normalises to
 * `//evil.com/x`, which a browser reads as another host, so leading slashes collapse to one.
 */
export function sameOriginPath(requestUrl: string, drop: string): string {
  const url = new URL(ORIGIN + (requestUrl.startsWith('/') ? requestUrl : `/${requestUrl}`))
  url.searchParams.delete(drop)
  const location = `/${url.pathname.replace(/^[/\\]+/, '')}${url.search}`
  return new URL(location, ORIGIN).origin === ORIGIN ? location : '/'
}

/**
 * Browsers share cookies across ports of one host, so the name is derived from this instance's token.
 * Failures are counted only once a request has shown no valid token, so the owner is never slowed.
 */
export function createOwnerAuth(token: string, clock: Clock): OwnerAuth {
  const failures = createFailureLimiter({ max: 20, windowMs: 60_000, clock })
  const cookieName = `loupe_${createHash('sha256').update(`cookie:${token}`).digest('hex').slice(0, 12)}`
  return {
    isOwner(request) {
      const header = request.headers.authorization
      if (header?.startsWith('Bearer ')) return secretsEqual(header.slice(7).trim(), token)
      const cookie = parseCookies(request.headers.cookie).get(cookieName)
      return cookie !== undefined && secretsEqual(cookie, token)
    },
    acceptHandoff(request, reply) {
      const offered = new URL(request.url, ORIGIN).searchParams.get('token')
      if (offered === null || !secretsEqual(offered, token)) return false
      void reply
        .header('set-cookie', `${cookieName}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`)
        .header('cache-control', 'no-store')
        .redirect(sameOriginPath(request.url, 'token'), 302)
      return true
    },
    refuse(request, reply, page) {
      if (failures.blocked(request.ip)) {
        return reply.code(429).header('retry-after', '60').send({ error: 'too_many_requests', message: 'Too many wrong Loupe tokens from this address; wait a minute.' })
      }
      failures.fail(request.ip)
      if (page !== undefined) return reply.code(401).type('text/html; charset=utf-8').send(page)
      return reply.code(401).send({ error: 'unauthorized', message: 'Missing or wrong Loupe token.' })
    },
  }
}

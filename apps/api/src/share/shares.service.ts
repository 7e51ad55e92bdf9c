import type { StorageGeneration } from '@loupe/domain'
import { z } from 'zod'
import type { AppConfig, AppDeps } from '../deps.js'
import { AppError } from '../errors.js'
import { parseStorage, sessionIdSchema, storageSchema } from '../store/session-ids.schema.js'
import type { SessionRecord } from '../store/store.js'
import { resolveSession } from '../store/resolve-session.js'
import { createShareToken, hashShareToken, TOKEN_PATTERN } from './share-token.js'
import { findShare, findShareByHash, insertShare, listShares as listShareRows, revokeShare as revokeShareRow, type ShareRow } from './shares.store.js'

/** Shares live in Loupe's own file; they name sessions of the opened OpenCode file. */
export type SharesDeps = Pick<AppDeps, 'opencode' | 'loupeDb' | 'clock' | 'config' | 'randomBytes'>

const MINUTE = 60
const DAY = 24 * 60 * MINUTE

export const createShareInput = z.strictObject({
  sessionID: sessionIdSchema,
  storage: storageSchema.optional(),
  /** Seconds until the link stops working: 5 minutes to 30 days. */
  expiresIn: z.number().int().min(5 * MINUTE).max(30 * DAY),
})
export const listSharesInput = z.strictObject({ sessionID: sessionIdSchema.optional() }).optional()
export const revokeShareInput = z.strictObject({ id: z.string().regex(/^shr_[A-Za-z0-9_-]{16}$/) })

export type ShareStatus = 'active' | 'expired' | 'revoked'

export interface ShareView {
  id: string
  sessionID: string
  /** null only for a stored row naming no generation Loupe knows (its links open nothing). */
  storage: StorageGeneration | null
  sessionTitle: string | null
  /** The token's last 4 characters (the token itself is shown only once, when created). */
  hint: string
  createdAt: number
  expiresAt: number
  revokedAt: number | null
  status: ShareStatus
}

export interface ShareLinks {
  url: string
  urls: string[]
  /** Whether other devices can reach these URLs (Loupe listens beyond loopback). */
  reachable: boolean
  host: string
  port: number
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'])
const bracket = (host: string) => (host.includes(':') ? `[${host}]` : host)

const reachableHosts = (config: AppConfig): string[] =>
  config.lanAddresses.length > 0 ? config.lanAddresses : LOOPBACK.has(config.host) ? [] : [config.host]

/** Whether a link made now could open on another device, so the dialog can say so before creating one. */
export function shareReach(config: AppConfig): { reachable: boolean; host: string } {
  return { reachable: reachableHosts(config).length > 0, host: config.host }
}

/** The URLs a share can be opened at: the LAN addresses when serving the LAN, else loopback only. */
export function shareLinks(config: AppConfig, token: string): ShareLinks {
  const path = `/s/${token}`
  const hosts = reachableHosts(config)
  const reachable = hosts.length > 0
  const urls = (reachable ? hosts : ['127.0.0.1']).map((h) => `http://${bracket(h)}:${config.port}${path}`)
  return { url: urls[0]!, urls, reachable, host: config.host, port: config.port }
}

export const shareStatus = (row: ShareRow, now: number): ShareStatus =>
  row.revoked_at !== null ? 'revoked' : row.expires_at <= now ? 'expired' : 'active'

/** A share row whose storage names a generation Loupe knows (lookupShare refuses any other). */
export type OpenShare = ShareRow & { storage: StorageGeneration }

/** The shared session as it is now, or undefined when it is gone or its generation is not in this file. */
export function sessionOf(deps: Pick<AppDeps, 'opencode'>, share: Pick<ShareRow, 'session_id' | 'storage'>): SessionRecord | undefined {
  const storage = parseStorage(share.storage)
  const store = storage && deps.opencode.stores.byGeneration[storage]
  return store && deps.opencode.db.read(() => store.getSession(deps.opencode.db, share.session_id))
}

function toView(deps: SharesDeps, row: ShareRow): ShareView {
  const session = sessionOf(deps, row)
  return {
    id: row.id,
    sessionID: row.session_id,
    storage: parseStorage(row.storage) ?? null,
    sessionTitle: session?.title ?? null,
    hint: row.token_hint,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    status: shareStatus(row, deps.clock.now()),
  }
}

function commit<T>(deps: SharesDeps, fn: () => T): T {
  const outcome = deps.loupeDb.write(fn, 2000)
  if (!outcome.ok) throw new AppError('unavailable', "Loupe's own database is busy; try again.")
  return outcome.value
}

/** A new link to one session's gallery. The token appears in this answer and nowhere else. */
export function createShare(deps: SharesDeps, input: z.infer<typeof createShareInput>) {
  const { session } = resolveSession(deps.opencode, input.sessionID, input.storage)
  const token = createShareToken(deps.randomBytes)
  const now = deps.clock.now()
  const row: ShareRow = {
    id: `shr_${deps.randomBytes(12).toString('base64url')}`,
    token_hash: token.hash,
    token_hint: token.hint,
    session_id: session.id,
    storage: session.storage,
    created_at: now,
    expires_at: now + input.expiresIn * 1000,
    revoked_at: null,
  }
  commit(deps, () => insertShare(deps.loupeDb, row))
  return { share: toView(deps, row), ...shareLinks(deps.config, token.token) }
}

export function listShares(deps: SharesDeps, input: z.infer<typeof listSharesInput>) {
  return { shares: listShareRows(deps.loupeDb, input?.sessionID, 500).map((row) => toView(deps, row)), reach: shareReach(deps.config) }
}

/** Revoke a link: from this moment its pages and images answer 410. */
export function revokeShare(deps: SharesDeps, input: z.infer<typeof revokeShareInput>): ShareView {
  const now = deps.clock.now()
  const row = commit(deps, () => {
    revokeShareRow(deps.loupeDb, input.id, now)
    return findShare(deps.loupeDb, input.id)
  })
  if (!row) throw new AppError('not_found', 'No such share link.')
  return toView(deps, row)
}

export type ShareLookup = { ok: true; share: OpenShare } | { ok: false; status: 404 | 410; reason: 'unknown' | 'expired' | 'revoked' }

/** The share a token opens, checked on every request (nothing is cached, so revocation is immediate). */
export function lookupShare(deps: SharesDeps, token: string): ShareLookup {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, status: 404, reason: 'unknown' }
  const row = findShareByHash(deps.loupeDb, hashShareToken(token))
  const storage = row && parseStorage(row.storage)
  if (!row || !storage) return { ok: false, status: 404, reason: 'unknown' }
  const status = shareStatus(row, deps.clock.now())
  if (status !== 'active') return { ok: false, status: 410, reason: status }
  return { ok: true, share: { ...row, storage } }
}

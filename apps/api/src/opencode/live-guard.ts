import type { SessionRecord } from '../store/store.js'
import { liveStatusRequest, parseLiveStatus } from '../store/live-status.js'
import { CREDENTIALS_FIX, type OpenCodeAnswer, type OpenCodeClient } from './opencode-client.js'
import { isLoupeProcess, readFileHolders } from './file-holders.js'
import { loopbackListeners } from './listening-ports.js'
import { readActivity, type LiveSession, type SessionActivity } from './session-activity.js'
import type { SqliteDb } from '../lib/sqlite.js'

/** `running`: a server of OpenCode says so; the others hold while no server of it answers cleanly. */
export type LiveReason = 'running' | 'recently_active' | 'unfinished_message'
/**
 * How Loupe knows: a server `reported` it, or why no server could be asked. `held_by_loupe`: the
 * only holders without a clean answer are other Loupe processes (a second server, `loupe mcp`).
 */
export type LiveCause = 'reported' | 'unauthorized' | 'bad_answer' | 'no_answer' | 'held_by_loupe'

export interface LiveLock {
  reason: LiveReason
  cause: LiveCause
  detail: string
  fix: string
}

export type LiveVerdict =
  | { state: 'allowed'; basis: 'servers_idle' | 'not_held' | 'quiet' }
  | { state: 'locked'; lock: LiveLock }

export interface LiveDeps {
  opencode: { path: string; db: SqliteDb }
  opencodeClient: OpenCodeClient
  clock: { now(): number }
  config: { liveWindowMs: number }
}

export type { LiveSession } from './session-activity.js'

/** checkLive's key for a session: an upgraded file holds one id in both generations. */
export const liveKey = (session: Pick<SessionRecord, 'storage' | 'id'>) => `${session.storage}:${session.id}`

/**
 * How long a caller that writes in several transactions may act on one verdict before asking again:
 * OpenCode resuming a session meanwhile is seen within this time, not after a whole job.
 */
export const LIVE_VERDICT_MS = 1000

type Source = { urls: string[]; explicit: boolean }
type Failure = Exclude<LiveCause, 'reported'>

/**
 * The one guard every write to OpenCode's sessions calls, before its transaction opens (never
 * inside one): may these sessions be changed now? Asks every OpenCode process holding the file (by
 * its loopback ports) and `--opencode-url`; a session a server reports running is locked. When a
 * holder gives no clean status read, sessions active in the last window or with an unfinished
 * message are locked too. Never "unknown = idle"; nothing holding the file allows the write.
 */
export async function checkLive(deps: LiveDeps, sessions: readonly LiveSession[]): Promise<Map<string, LiveVerdict>> {
  const held = readFileHolders(deps.opencode.path)
  // Another Loupe is no OpenCode to ask (its port serves Loupe), but it still holds the file: it
  // counts as a holder without an answer, so the activity rules below still apply (fail closed).
  const loupe = held?.filter(isLoupeProcess) ?? []
  const holders = held && held.filter((pid) => !loupe.includes(pid))
  const sources = findSources(deps.opencodeClient, holders)
  const answers = await askAll(deps.opencodeClient, sources, sessions.map((s) => s.session))
  const activity = readActivity(deps.opencode.db, sessions)
  // Keyed by liveKey.
  const verdicts = new Map<string, LiveVerdict>()
  for (const { session } of sessions) {
    const evidence = weigh(session, sources, answers, holders, loupe)
    verdicts.set(liveKey(session), judge(evidence, activity.get(liveKey(session)), deps.clock.now(), deps.config.liveWindowMs))
  }
  return verdicts
}

/** checkLive for one session. */
export async function checkLiveSession(deps: LiveDeps, session: LiveSession): Promise<LiveVerdict> {
  const verdict = (await checkLive(deps, [session])).get(liveKey(session.session))
  if (!verdict) throw new Error('checkLive answers every session it is given')
  return verdict
}

function findSources(client: OpenCodeClient, holders: number[] | null): Source[] {
  const listeners = holders === null ? [] : loopbackListeners(holders) ?? []
  const sources: Source[] = (holders ?? []).map((pid) => ({ urls: listeners.filter((l) => l.pid === pid).map((l) => l.url), explicit: false }))
  if (client.url && !listeners.some((l) => l.url === client.url)) sources.push({ urls: [client.url], explicit: true })
  return sources
}

async function askAll(client: OpenCodeClient, sources: Source[], sessions: SessionRecord[]): Promise<Map<string, OpenCodeAnswer>> {
  const requests = new Map(sessions.map((s) => [liveStatusRequest(s).key, liveStatusRequest(s)]))
  const urls = [...new Set(sources.flatMap((s) => s.urls))]
  const answers = new Map<string, OpenCodeAnswer>()
  await Promise.all(urls.flatMap((url) => [...requests.values()].map(async (r) => {
    answers.set(`${url} ${r.key}`, await client.request(url, { method: 'GET', path: r.path, directory: r.directory, purpose: 'status' }))
  })))
  return answers
}

interface Evidence {
  /** The server that reports the session running, or null. */
  busyAt: string | null
  /** Why some holder (or the explicit server) gave no clean answer; null when all did. */
  failure: Failure | null
  /** Holders taken for OpenCode (every process Loupe does not recognise as its own). */
  holders: number[]
  loupe: number[]
}

// A failure of OpenCode's outranks another Loupe's: the refusal names the likelier cause.
const FAILURE_RANK: Record<Failure, number> = { unauthorized: 3, bad_answer: 2, no_answer: 1, held_by_loupe: 0 }
const worse = (a: Failure | null, b: Failure | null): Failure | null => (a === null ? b : b === null ? a : FAILURE_RANK[a] >= FAILURE_RANK[b] ? a : b)

function weigh(session: SessionRecord, sources: Source[], answers: Map<string, OpenCodeAnswer>, holders: number[] | null, loupe: number[]): Evidence {
  const key = liveStatusRequest(session).key
  const evidence: Evidence = { busyAt: null, failure: holders === null ? 'no_answer' : loupe.length ? 'held_by_loupe' : null, holders: holders ?? [], loupe }
  for (const source of sources) {
    let clean = false
    let failure: Failure | null = source.urls.length === 0 ? 'no_answer' : null
    for (const url of source.urls) {
      const answer = answers.get(`${url} ${key}`)
      if (!answer) continue
      // Nothing listens at --opencode-url: that server is not running, so it runs nothing.
      if (source.explicit && answer.kind === 'unreachable' && answer.cause === 'refused') {
        clean = true
        continue
      }
      const state = answer.kind === 'ok' ? parseLiveStatus(session, answer.value) : null
      if (state === 'busy') evidence.busyAt ??= url
      if (state !== null) clean = true
      else failure = worse(failure, failureOf(answer))
    }
    if (!clean) evidence.failure = worse(evidence.failure, failure ?? 'no_answer')
  }
  return evidence
}

const failureOf = (answer: OpenCodeAnswer): Failure =>
  answer.kind === 'unauthorized' ? 'unauthorized' : answer.kind === 'bad_answer' || answer.kind === 'not_found' || answer.kind === 'ok' ? 'bad_answer' : 'no_answer'

function judge(evidence: Evidence, activity: SessionActivity | undefined, now: number, windowMs: number): LiveVerdict {
  if (evidence.busyAt) return { state: 'locked', lock: lockFor('running', evidence, windowMs) }
  if (evidence.failure === null) return { state: 'allowed', basis: evidence.holders.length > 0 ? 'servers_idle' : 'not_held' }
  if (!activity || activity.unfinished) return { state: 'locked', lock: lockFor('unfinished_message', evidence, windowMs) }
  if (now - activity.lastActiveAt < windowMs) return { state: 'locked', lock: lockFor('recently_active', evidence, windowMs) }
  return { state: 'allowed', basis: 'quiet' }
}

const minutes = (ms: number) => `${Math.max(1, Math.round(ms / 60_000))} minute${Math.round(ms / 60_000) === 1 ? '' : 's'}`

function lockFor(reason: LiveReason, evidence: Evidence, windowMs: number): LiveLock {
  if (reason === 'running') {
    return { reason, cause: 'reported', detail: `OpenCode is running this session right now (its server at ${evidence.busyAt} says so).`, fix: 'Wait until OpenCode is idle in this session, then try again.' }
  }
  const who = evidence.holders.length ? `OpenCode (process ${evidence.holders.join(', ')}) has the database open` : 'Loupe cannot tell which programs have the database open'
  const why = reason === 'unfinished_message' ? 'this session has a message OpenCode has not finished' : `this session was active in the last ${minutes(windowMs)}`
  const cause = evidence.failure ?? 'no_answer'
  const CAUSES: Record<Failure, string> = {
    unauthorized: `${who}, its server refused Loupe's credentials, and ${why}.`,
    bad_answer: `${who}, its server sent an answer Loupe does not understand, and ${why}.`,
    no_answer: `${who}, no server of it answered Loupe, and ${why}.`,
    held_by_loupe: `Another Loupe (pid ${evidence.loupe.join(', ')}) has this file open, and ${why}.`,
  }
  const wait = reason === 'unfinished_message' ? 'Let OpenCode finish this session or quit OpenCode' : `Wait until the session has been idle for ${minutes(windowMs)}, or quit OpenCode`
  const FIXES: Record<Failure, string> = {
    unauthorized: `${CREDENTIALS_FIX} Or: ${wait.toLowerCase()}.`,
    bad_answer: `${wait}, then try again; check that --opencode-url points at \`opencode serve\`.`,
    no_answer: `${wait}, then try again. Running OpenCode as \`opencode serve\` (or starting Loupe with --opencode-url) lets Loupe ask it directly.`,
    held_by_loupe: `Close that Loupe (a second \`loupe\` server or \`loupe mcp\`) or make this change there${reason === 'recently_active' ? `, or wait until the session has been idle for ${minutes(windowMs)}` : ''}, then try again.`,
  }
  return { reason, cause, detail: CAUSES[cause], fix: FIXES[cause] }
}

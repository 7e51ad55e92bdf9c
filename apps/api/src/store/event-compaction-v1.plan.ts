import { isObject, type JsonObject } from '@loupe/domain'
import { minimalV1Part } from './minimal-v1-part.js'

/** One event row as the compaction scan reads it: metadata and the few fields a redaction needs, never the whole payload. */
export interface ScannedEvent {
  id: string
  seq: number
  type: string
  bytes: number
  /** JSON text: the part fields (array) of a part snapshot, `[info, sessionID]` of a message or session snapshot; null otherwise. */
  fields: string | null
  /** JSON text of a snapshot's payload without its part or info: what stays as it is. */
  rest: string | null
  /** The payload itself when it is small enough to be a redacted one already; null otherwise. */
  small: string | null
  /** 0 when the payload of an event of another type is not JSON. */
  valid: number
}

export interface Redaction {
  id: string
  seq: number
  type: string
  bytes: number
  /** The payload member replaced: `$.part` or `$.info`. */
  path: '$.part' | '$.info'
  /** JSON text of the minimal value put there. */
  replacement: string
  /** The whole new payload, when the rest of the old one has OpenCode's own keys; otherwise the write runs `json_set`. */
  data?: string
  /** Payload bytes after the redaction, as the dry run reports them (the write measures them). */
  estimatedBytes: number
}

export interface SessionCompactionPlan {
  events: number
  eventBytes: number
  redactions: Redaction[]
  /** Superseded snapshots that are minimal already (an earlier compaction, or a prune's redaction). */
  alreadyRedacted: number
  /** Superseded snapshots with no minimal form Loupe trusts (step-finish, whose projection re-accounts usage; unknown part types or roles). */
  kept: number
  /** Events of types outside 1.x's session events, left untouched. */
  unknownTypes: number
  /** The ids of the newest snapshots the redactions rely on: each batch checks they are still there. */
  newest: string[]
}

export type PlanOutcome = { ok: true; plan: SessionCompactionPlan } | { ok: false; reason: string }

const PART = 'message.part.updated.1'
const MESSAGE = 'message.updated.1'
const SESSION = 'session.updated.1'
export const SNAPSHOT_TYPES = [PART, MESSAGE, SESSION] as const
/** The durable session events of 1.x (opencode-storage.md §8.3). */
const KNOWN_TYPES = new Set<string>([...SNAPSHOT_TYPES, 'session.created.1', 'session.deleted.1', 'message.removed.1', 'message.part.removed.1'])

const utf8Bytes = (text: string) => Buffer.byteLength(text)
const str = (v: unknown): v is string => typeof v === 'string'
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * The part a superseded `message.part.updated.1` is redacted to: the prune recipe (§10.3) for tool and
 * reasoning, an empty text for text. Other types have none: a step-finish's projection re-accounts the
 * session's usage from the row it replaces, so an earlier copy must stay as it was.
 */
export function minimalPartSnapshot(part: JsonObject): JsonObject | undefined {
  if (!str(part.id) || !str(part.sessionID) || !str(part.messageID)) return undefined
  if (part.type === 'tool') return str(part.callID) && str(part.tool) ? minimalV1Part(part) : undefined
  if (part.type === 'reasoning') return minimalV1Part(part)
  if (part.type === 'text') return { id: part.id, sessionID: part.sessionID, messageID: part.messageID, type: 'text', text: '' }
  return undefined
}

/** The required fields of 1.18.33's message schema, with their own values; the newer snapshot replaces the row's data whole. */
export function minimalMessageInfo(info: JsonObject): JsonObject | undefined {
  const { id, sessionID, role, time, agent } = info
  if (!str(id) || !str(sessionID) || !isObject(time) || !num(time.created) || !str(agent)) return undefined
  const base = { id, sessionID, role, time: { created: time.created } }
  if (role === 'user') {
    const model = info.model
    if (!isObject(model) || !str(model.providerID) || !str(model.modelID)) return undefined
    return { ...base, agent, model: { providerID: model.providerID, modelID: model.modelID } }
  }
  if (role !== 'assistant') return undefined
  const { parentID, modelID, providerID, mode, path, cost, tokens } = info
  if (!str(parentID) || !str(modelID) || !str(providerID) || !str(mode) || !num(cost)) return undefined
  if (!isObject(path) || !str(path.cwd) || !str(path.root)) return undefined
  if (!isObject(tokens) || !isObject(tokens.cache)) return undefined
  const t = { input: tokens.input, output: tokens.output, reasoning: tokens.reasoning, cache: { read: tokens.cache.read, write: tokens.cache.write } }
  if (![t.input, t.output, t.reasoning, t.cache.read, t.cache.write].every(num)) return undefined
  return { ...base, parentID, modelID, providerID, mode, agent, path: { cwd: path.cwd, root: path.root }, cost, tokens: t }
}

// 1.18.33's session projector sets these columns only when the info carries them (the others it
// always sets, from the info or a default), so an earlier snapshot's value survives wherever the
// newest lacks the field: those the redacted copy keeps.
const SESSION_REQUIRED = ['id', 'slug', 'projectID', 'directory', 'title', 'version'] as const
const SESSION_SET_IF_PRESENT = ['parentID', 'path', 'agent', 'model', 'share', 'summary', 'metadata', 'permission'] as const
const TIME_SET_IF_PRESENT = ['compacting', 'archived'] as const

/** An earlier `session.updated.1` info reduced to the required fields plus whatever the newest one would not overwrite. */
export function minimalSessionInfo(info: JsonObject, newest: JsonObject): JsonObject | undefined {
  if (!SESSION_REQUIRED.every((k) => str(info[k])) || !isObject(info.time) || !num(info.time.created) || !num(info.time.updated)) return undefined
  const out: JsonObject = Object.fromEntries(SESSION_REQUIRED.map((k) => [k, info[k]]))
  for (const k of SESSION_SET_IF_PRESENT) {
    if (!(k in info)) continue
    const lostDiffs = k === 'summary' && isObject(info.summary) && 'diffs' in info.summary && !(isObject(newest.summary) && 'diffs' in newest.summary)
    if (!(k in newest) || lostDiffs) out[k] = info[k]
  }
  const time: JsonObject = { created: info.time.created, updated: info.time.updated }
  const newestTime = isObject(newest.time) ? newest.time : {}
  for (const k of TIME_SET_IF_PRESENT) if (k in info.time && !(k in newestTime)) time[k] = info.time[k]
  out.time = time
  return out
}

/** Key-order-independent JSON equality, for recognising a payload that is minimal already. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]))
  }
  if (!isObject(a) || !isObject(b)) return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameJson(a[k], b[k]))
}

interface Snapshot {
  row: ScannedEvent
  key: string
  /** The part or info the snapshot carries (parts: only the extracted identity fields). */
  value: JsonObject
}

// The payload keys around `part` / `info` in 1.18.33, in OpenCode's order (opencode-storage.md §8.3).
const PART_REST = ['sessionID', 'time']
const INFO_REST = ['sessionID']

/** The new payload text, in OpenCode's key order, when the rest is exactly OpenCode's; undefined otherwise. */
function wholePayload(row: ScannedEvent, minimal: JsonObject): string | undefined {
  let rest: unknown
  try {
    rest = JSON.parse(row.rest ?? 'null')
  } catch {
    return undefined
  }
  if (!isObject(rest)) return undefined
  const keys = Object.keys(rest)
  if (row.type === PART) {
    return sameJson(keys, PART_REST) ? JSON.stringify({ sessionID: rest.sessionID, part: minimal, time: rest.time }) : undefined
  }
  return sameJson(keys, INFO_REST) ? JSON.stringify({ sessionID: rest.sessionID, info: minimal }) : undefined
}

function readSnapshot(row: ScannedEvent, sessionID: string): Snapshot | string {
  const bad = `event ${row.seq} (${row.type}) is not a shape Loupe knows`
  let fields: unknown
  try {
    fields = JSON.parse(row.fields ?? 'null')
  } catch {
    return bad
  }
  if (!Array.isArray(fields)) return bad
  if (row.type === PART) {
    const [id, type, partSession, messageID, callID, tool, start] = fields as unknown[]
    if (!str(id) || partSession !== sessionID) return bad
    const value: JsonObject = { id, type: type as string, sessionID: partSession, messageID: messageID as string, callID: callID as string, tool: tool as string }
    if (start !== null && start !== undefined) value.time = { start: start as number }
    return { row, key: `p:${id}`, value }
  }
  const [info] = fields as unknown[]
  if (!isObject(info) || !str(info.id)) return bad
  if (row.type === SESSION && info.id !== sessionID) return bad
  return { row, key: row.type === SESSION ? 's' : `m:${info.id}`, value: info }
}

const payloadOf = (small: string | null, path: Redaction['path']): unknown => {
  if (small === null) return undefined
  try {
    const data: unknown = JSON.parse(small)
    return isObject(data) ? data[path === '$.part' ? 'part' : 'info'] : undefined
  } catch {
    return undefined
  }
}

/** A session's plan built from its log read newest first, one page at a time: no row outlives its page. */
export interface SessionPlanner {
  /** The next row, in descending seq order. */
  add(row: ScannedEvent): void
  finish(): PlanOutcome
}

/**
 * Which events of one session's log a compaction redacts: every part, message or session snapshot
 * followed later in the log by a snapshot of the same entity. Read newest first, the first snapshot
 * of an entity is its newest and every later one is superseded, so only the redactions and one id
 * per entity are held. An event Loupe cannot read fails the whole session (nothing of it is
 * planned), with the reason of the earliest such event.
 */
export function createSessionPlanner(sessionID: string): SessionPlanner {
  const plan: SessionCompactionPlan = { events: 0, eventBytes: 0, redactions: [], alreadyRedacted: 0, kept: 0, unknownTypes: 0, newest: [] }
  /** Entity key → the newest snapshot's id. */
  const newestOf = new Map<string, string>()
  /** Newest id → the lowest seq of a redaction relying on it (the order the ids are listed in). */
  const relied = new Map<string, number>()
  let newestSession: JsonObject = {}
  let failure: string | null = null
  const superseded = (row: ScannedEvent, snapshot: Snapshot, newestID: string) => {
    const path = row.type === PART ? '$.part' : '$.info'
    const minimal = row.type === PART ? minimalPartSnapshot(snapshot.value) : row.type === MESSAGE ? minimalMessageInfo(snapshot.value) : minimalSessionInfo(snapshot.value, newestSession)
    if (!minimal) return void plan.kept++
    if (sameJson(payloadOf(row.small, path), minimal)) return void plan.alreadyRedacted++
    const replacement = JSON.stringify(minimal)
    const data = wholePayload(row, minimal)
    // Without the whole payload (keys beyond OpenCode's), the size is the rest plus the new member.
    const estimatedBytes = data !== undefined ? utf8Bytes(data) : utf8Bytes(row.rest ?? '') + utf8Bytes(replacement) + path.length + 2
    plan.redactions.push({ id: row.id, seq: row.seq, type: row.type, bytes: row.bytes, path, replacement, ...(data !== undefined ? { data } : {}), estimatedBytes })
    relied.set(newestID, row.seq)
  }
  return {
    add(row) {
      plan.events++
      plan.eventBytes += row.bytes
      if (!KNOWN_TYPES.has(row.type)) plan.unknownTypes++
      if (row.valid === 0) return void (failure = `event ${row.seq} (${row.type}) is not valid JSON`)
      if (!(SNAPSHOT_TYPES as readonly string[]).includes(row.type)) return
      const snapshot = readSnapshot(row, sessionID)
      if (typeof snapshot === 'string') return void (failure = snapshot)
      if (failure) return
      const newestID = newestOf.get(snapshot.key)
      if (newestID !== undefined) return superseded(row, snapshot, newestID)
      newestOf.set(snapshot.key, row.id)
      if (snapshot.key === 's') newestSession = snapshot.value
    },
    finish() {
      if (failure) return { ok: false, reason: failure }
      plan.redactions.reverse()
      plan.newest = [...relied].sort((a, b) => a[1] - b[1]).map(([id]) => id)
      return { ok: true, plan }
    },
  }
}

/** The plan of a whole log in seq order (the planner fed newest first). Pure. */
export function planSessionCompaction(sessionID: string, rows: readonly ScannedEvent[]): PlanOutcome {
  const planner = createSessionPlanner(sessionID)
  for (let i = rows.length - 1; i >= 0; i--) planner.add(rows[i]!)
  return planner.finish()
}

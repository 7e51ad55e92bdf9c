import type { JsonObject } from '@loupe/domain'
import type { FileChange, ModelRef } from './demo-spec.js'
import { emitEvent, type SessionState } from './demo-session.js'

export interface PartState {
  id: string
  messageID: string
  created: number
  updated: number
  data: JsonObject
  /** `data` as JSON, kept from the last event so big outputs are serialised once per state. */
  json: string | null
}

/** A new part: its id is drawn at `t`, so part ids ascend in creation order. */
export function createPart(s: SessionState, messageID: string, data: JsonObject, t: number): PartState {
  const part: PartState = { id: s.ctx.ids.ascending('prt', t), messageID, created: t, updated: t, data, json: null }
  emitPart(s, part, t)
  return part
}

/** `message.part.updated.1` carries the full part, ids included, plus the publish time. */
export function updatePart(s: SessionState, part: PartState, data: JsonObject, t: number): void {
  part.data = data
  emitPart(s, part, t)
}

function emitPart(s: SessionState, part: PartState, t: number): void {
  part.updated = t
  part.json = null
  emitEvent(s, 'message.part.updated.1', () => {
    // Same text as JSON.stringify({sessionID, part: {id, sessionID, messageID, ...data}, time}).
    part.json = JSON.stringify(part.data)
    const ids = `{"id":${JSON.stringify(part.id)},"sessionID":${JSON.stringify(s.id)},"messageID":${JSON.stringify(part.messageID)}`
    return `{"sessionID":${JSON.stringify(s.id)},"part":${ids}${part.json.length > 2 ? ',' : ''}${part.json.slice(1)},"time":${t}}`
  }, t)
}

export function storePart(s: SessionState, part: PartState): void {
  const data = part.json ?? JSON.stringify(part.data)
  s.parts.push({ id: part.id, message_id: part.messageID, session_id: s.id, time_created: part.created, time_updated: part.updated, data })
}

export interface UserState {
  id: string
  created: number
  updated: number
  agent: string
  model: ModelRef
  /** `summary.diffs`: absent until the first step starts, then every file changed in the turn. */
  diffs: FileChange[] | null
}

export interface AssistantState {
  id: string
  parentID: string
  created: number
  updated: number
  completed: number | null
  agent: string
  model: ModelRef
  summary: boolean
  cost: number
  tokens: JsonObject
  finish: string | null
  error: JsonObject | null
}

export function userInfo(s: SessionState, u: UserState): JsonObject {
  return {
    id: u.id,
    sessionID: s.id,
    role: 'user',
    time: { created: u.created },
    ...(u.diffs ? { summary: { diffs: u.diffs } } : {}),
    agent: u.agent,
    model: { providerID: u.model.providerID, modelID: u.model.modelID },
  }
}

export function assistantInfo(s: SessionState, a: AssistantState): JsonObject {
  return {
    id: a.id,
    sessionID: s.id,
    role: 'assistant',
    time: { created: a.created, ...(a.completed !== null ? { completed: a.completed } : {}) },
    ...(a.error ? { error: a.error } : {}),
    parentID: a.parentID,
    modelID: a.model.modelID,
    providerID: a.model.providerID,
    mode: a.agent,
    agent: a.agent,
    path: { cwd: s.directory, root: s.project.worktree },
    ...(a.summary ? { summary: true } : {}),
    cost: a.cost,
    tokens: a.tokens,
    ...(a.finish ? { finish: a.finish } : {}),
  }
}

export function emitMessage(s: SessionState, message: UserState | AssistantState, t: number): void {
  message.updated = t
  const info = () => ('parentID' in message ? assistantInfo(s, message) : userInfo(s, message))
  emitEvent(s, 'message.updated.1', () => ({ sessionID: s.id, info: info() }), t)
}

/** The `message` row: the info JSON without `id` and `sessionID`; `time_created` = `time.created`. */
export function storeMessage(s: SessionState, message: UserState | AssistantState): void {
  const { id: _id, sessionID: _sid, ...data } = 'parentID' in message ? assistantInfo(s, message) : userInfo(s, message)
  s.messages.push({ id: message.id, session_id: s.id, time_created: message.created, time_updated: message.updated, data: JSON.stringify(data) })
}

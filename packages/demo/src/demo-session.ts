import type { JsonObject, MessageTable, PartTable, TodoTable } from '@loupe/domain'
import type { DemoProjectRef, ModelRef } from './demo-spec.js'
import type { SessionRows, WriterContext } from './demo-rows.js'

export interface TokenTotals {
  input: number
  output: number
  reasoning: number
  cacheRead: number
  cacheWrite: number
}

/** The projector's view of one session while the generator plays it forward. */
export interface SessionState {
  ctx: WriterContext
  id: string
  project: DemoProjectRef
  directory: string
  slug: string
  parentID: string | null
  title: string
  agent: string | null
  model: (ModelRef & { variant?: string }) | null
  metadata: JsonObject | null
  permission: JsonObject[] | null
  created: number
  updated: number
  archived: number | null
  /** `summary: {additions, deletions, files}` appears (all 0) once the first step starts. */
  summarized: boolean
  cost: number
  tokens: TokenTotals
  seq: number
  messages: MessageTable[]
  parts: PartTable[]
  events: SessionRows['events']
  todos: TodoTable[]
  /** Git tree hash of the worktree, as OpenCode's snapshots record it. */
  snapshot: string
  /** Tokens the model sees next call, and how many of them a provider cache holds. */
  context: { tokens: number; cached: number }
}

export interface SessionInit {
  project: DemoProjectRef
  directory: string
  slug: string
  parentID?: string
  title?: string
  agent?: string
  metadata?: JsonObject
  permission?: JsonObject[]
  snapshot: string
}

/** `session.path`: relative to the worktree; for `global` (worktree `/`) the directory without its slash. */
export function sessionPath(project: DemoProjectRef, directory: string): string {
  if (project.worktree === '/') return directory.replace(/^\/+/, '')
  return directory === project.worktree ? '' : directory.slice(project.worktree.length + 1)
}

/** Append an event; `data` builds its JSON text only when the log is being written. */
export function emitEvent(s: SessionState, type: string, data: () => JsonObject | string, t: number): void {
  const id = s.ctx.ids.ascending('evt', t)
  const seq = s.seq++
  if (!s.ctx.events) return
  const payload = data()
  s.events.push({ id, aggregate_id: s.id, seq, type, data: typeof payload === 'string' ? payload : JSON.stringify(payload) })
}

/** SessionInfo in OpenCode's key order (opencode-storage.md §6.4). */
export function sessionInfo(s: SessionState): JsonObject {
  return {
    id: s.id,
    slug: s.slug,
    projectID: s.project.id,
    directory: s.directory,
    path: sessionPath(s.project, s.directory),
    ...(s.parentID ? { parentID: s.parentID } : {}),
    ...(s.summarized ? { summary: { additions: 0, deletions: 0, files: 0 } } : {}),
    cost: s.cost,
    tokens: { input: s.tokens.input, output: s.tokens.output, reasoning: s.tokens.reasoning, cache: { read: s.tokens.cacheRead, write: s.tokens.cacheWrite } },
    title: s.title,
    ...(s.agent ? { agent: s.agent } : {}),
    ...(s.model ? { model: { id: s.model.modelID, providerID: s.model.providerID, ...(s.model.variant ? { variant: s.model.variant } : {}) } } : {}),
    version: s.ctx.version,
    ...(s.metadata ? { metadata: s.metadata } : {}),
    time: { created: s.created, updated: s.updated, ...(s.archived !== null ? { archived: s.archived } : {}) },
    ...(s.permission ? { permission: s.permission } : {}),
  }
}

/** `session.created.1` at the clock's current time. */
export function openSession(ctx: WriterContext, init: SessionInit): SessionState {
  const t = ctx.clock.now()
  const s: SessionState = {
    ctx,
    id: ctx.ids.descending('ses', t),
    project: init.project,
    directory: init.directory,
    slug: init.slug,
    parentID: init.parentID ?? null,
    title: init.title ?? `New session - ${new Date(t).toISOString()}`,
    agent: init.agent ?? null,
    model: null,
    metadata: init.metadata ?? null,
    permission: init.permission ?? null,
    created: t,
    updated: t,
    archived: null,
    summarized: false,
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
    seq: 0,
    messages: [],
    parts: [],
    events: [],
    todos: [],
    snapshot: init.snapshot,
    context: { tokens: 0, cached: 0 },
  }
  emitEvent(s, 'session.created.1', () => ({ sessionID: s.id, info: sessionInfo(s) }), t)
  return s
}

export function touchSession(s: SessionState, t: number): void {
  s.updated = t
  emitEvent(s, 'session.updated.1', () => ({ sessionID: s.id, info: sessionInfo(s) }), t)
}

/** Archive as `PATCH /session/:id {time:{archived}}` does: `time.updated` is left alone. */
export function archiveSession(s: SessionState, t: number): void {
  s.archived = t
  emitEvent(s, 'session.updated.1', () => ({ sessionID: s.id, info: sessionInfo(s) }), t)
}

/** Hand the session's rows to the sink; the `session` row carries the projector's totals. */
export function closeSession(s: SessionState): void {
  const model = s.model ? JSON.stringify({ id: s.model.modelID, providerID: s.model.providerID, ...(s.model.variant ? { variant: s.model.variant } : {}) }) : null
  const zero = s.summarized ? 0 : null
  s.ctx.sink({
    session: {
      id: s.id,
      project_id: s.project.id,
      parent_id: s.parentID,
      slug: s.slug,
      directory: s.directory,
      path: sessionPath(s.project, s.directory),
      title: s.title,
      version: s.ctx.version,
      summary_additions: zero,
      summary_deletions: zero,
      summary_files: zero,
      metadata: s.metadata ? JSON.stringify(s.metadata) : null,
      cost: s.cost,
      tokens_input: s.tokens.input,
      tokens_output: s.tokens.output,
      tokens_reasoning: s.tokens.reasoning,
      tokens_cache_read: s.tokens.cacheRead,
      tokens_cache_write: s.tokens.cacheWrite,
      revert: null,
      permission: s.permission ? JSON.stringify(s.permission) : null,
      agent: s.agent,
      model,
      time_created: s.created,
      time_updated: s.updated,
      time_archived: s.archived,
    },
    messages: s.messages,
    parts: s.parts,
    events: s.events,
    lastSeq: s.seq - 1,
    todos: s.todos,
  })
}

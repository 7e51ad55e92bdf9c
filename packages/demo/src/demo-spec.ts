import type { JsonObject } from '@loupe/domain'

/**
 * What happened in a demo session, without ids or times: the content modules write these, the
 * writer turns them into the rows and events OpenCode 1.18.33 would have stored.
 */
export interface ModelRef {
  providerID: string
  modelID: string
}

/** A file a tool changed: becomes a `patch` part and an entry of the user's `summary.diffs`. */
export interface FileChange {
  /** Path relative to the worktree. */
  file: string
  patch: string
  additions: number
  deletions: number
  status: 'added' | 'modified'
}

export interface ToolSpec {
  tool: string
  input: JsonObject
  status: 'completed' | 'error'
  output?: string
  title?: string
  metadata?: JsonObject
  error?: string
  /** `metadata` of the intermediate `running` states (bash streams its output, edit shows a diff). */
  progress?: JsonObject[]
  /** Images a tool read: stored in `state.attachments[]`, each with its own part identity. */
  attachments?: { mime: string; url: string }[]
  durationMs: number
  files?: FileChange[]
  /** `task`: the subagent session it runs. */
  child?: ChildSessionSpec
}

export interface StepSpec {
  reasoning?: string
  text?: string
  tools?: ToolSpec[]
  /** Defaults to `tool-calls` when there are tools, else `stop`. */
  finish?: string
  /** Assistant error `{name, data}` (opencode-storage.md §6.1). */
  error?: JsonObject
}

export type UserPartSpec =
  | { type: 'text'; text: string; synthetic?: boolean }
  | { type: 'file'; mime: string; filename: string; url: string; source?: JsonObject }

export interface PromptTurn {
  kind: 'prompt'
  agent: string
  parts: UserPartSpec[]
  steps: StepSpec[]
  /** How long the user took to write this prompt. */
  thinkMs: number
}

export interface CompactionTurn {
  kind: 'compaction'
  auto: boolean
  summary: string
}

export type TurnSpec = PromptTurn | CompactionTurn

export interface ChildSessionSpec {
  description: string
  agent: string
  prompt: string
  steps: StepSpec[]
  /** The subagent's final answer, which the parent's `task` output wraps. */
  result: string
}

export interface DemoProjectRef {
  id: string
  worktree: string
}

export interface SessionSpec {
  project: DemoProjectRef
  directory: string
  title: string
  agent: string
  model: ModelRef
  turns: TurnSpec[]
  archived?: boolean
  metadata?: JsonObject
}

/** How one assistant step is played: who answers, and the hooks the turn gives it. */
export interface StepOptions {
  agent: string
  model: ModelRef
  /** The compaction summary assistant (`summary: true`). */
  summary?: boolean
  /** Runs right after the assistant message is announced (title, user summary on a turn's first step). */
  onStart?: () => void
  /** Creates a `task` tool's subagent session now; `run` plays it. */
  openChild(spec: ChildSessionSpec): { id: string; run(): void }
}

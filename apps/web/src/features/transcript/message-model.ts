import type { NativeMessage } from '@loupe/domain'

/** An image the transcript can show: always a `data:` URL, so nothing is fetched from elsewhere. */
export interface ImageView {
  src: string
  mime: string
  name?: string
  bytes: number
}

export interface ToolView {
  name: string
  status: string
  title?: string
  input: unknown
  /** Tool-specific details OpenCode keeps beside the output (`edit` diff, `bash` exit code). */
  metadata: unknown
  /** The whole part as stored, for the raw JSON view. */
  raw: unknown
  inputSummary: string
  output: string | null
  error: string | null
  images: ImageView[]
  outputBytes: number
  durationMs?: number
  /** OpenCode already cleared this output from the model's context (1.x `time.compacted`, 2.x `time.pruned`). */
  compacted: boolean
  /** The subagent session a `task` call started (1.x `state.metadata.sessionId`). */
  childSessionID?: string
}

export interface Usage {
  tokens?: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number }
  cost?: number
  reason?: string
}

/**
 * One renderable piece of a message. `ref` addresses it in URLs (`&part=`) and, later, for
 * selection: a 1.x part id, or a 2.x content index (`files.N` for user files).
 */
export type ViewItem =
  | { kind: 'text'; ref: string; text: string; synthetic: boolean; bytes: number }
  | { kind: 'reasoning'; ref: string; text: string; durationMs?: number; bytes: number }
  | { kind: 'tool'; ref: string; tool: ToolView; bytes: number }
  | { kind: 'image'; ref: string; image: ImageView }
  | { kind: 'file'; ref: string; name: string; mime: string }
  | { kind: 'usage'; ref: string; usage: Usage }
  | { kind: 'patch'; ref: string; files: string[] }
  | { kind: 'note'; ref: string; label: string; detail?: string; tone: 'info' | 'warn' }
  | { kind: 'divider'; ref: string; label: string; detail?: string }
  | { kind: 'unknown'; ref: string; type: string; bytes: number }

export type MessageRole = 'user' | 'assistant' | 'system' | 'event'

export interface MessageModel {
  id: string
  storage: NativeMessage['storage']
  role: MessageRole
  /** The stored type (`user`, `assistant`, 2.x `compaction`, …) for display. */
  type: string
  createdAt?: number
  completedAt?: number
  agent?: string
  model?: string
  error?: string
  items: ViewItem[]
  /** Too large to send: the API left the content out. */
  omittedBytes?: number
}

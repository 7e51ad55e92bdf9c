import type { StorageGeneration } from './ids.js'
import { isObject, str } from './json-read.js'

/** Part kinds OpenCode 1.x writes (`part.data.type`); anything else is flagged unknown. */
export const V1_PART_KINDS = [
  'text', 'reasoning', 'tool', 'file', 'step-start', 'step-finish', 'snapshot',
  'patch', 'agent', 'subtask', 'retry', 'compaction',
] as const
/** Item kinds of a 2.x assistant `data.content[]`; anything else fails closed. */
export const V2_CONTENT_KINDS = ['text', 'reasoning', 'tool'] as const

export type PartKind = (typeof V1_PART_KINDS)[number] | 'unknown'

/** Terminal tool states: only these may be pruned. */
export const TERMINAL_TOOL_STATUSES = ['completed', 'error'] as const

export interface PartInfo {
  kind: PartKind
  /** The raw `type` string as stored (for display when unknown). */
  type: string
  known: boolean
  tool?: string
  status?: string
  title?: string
  /** tool or reasoning: what the design calls technical. */
  technical: boolean
  /** technical and, for tools, in a terminal state. */
  prunable: boolean
  synthetic: boolean
}


/**
 * Classify one stored part: a 1.x part (`part.data` plus ids) or a 2.x content item.
 * Unknown types are flagged, never guessed; they are neither technical nor prunable.
 */
export function classifyPart(part: unknown, storage: StorageGeneration): PartInfo {
  const type = isObject(part) ? (str(part.type) ?? '') : ''
  const kinds: readonly string[] = storage === 'v1' ? V1_PART_KINDS : V2_CONTENT_KINDS
  const known = kinds.includes(type)
  const base: PartInfo = {
    kind: known ? (type as PartKind) : 'unknown',
    type,
    known,
    technical: false,
    prunable: false,
    synthetic: isObject(part) && part.synthetic === true,
  }
  if (!known || !isObject(part)) return base
  if (type === 'reasoning') return { ...base, technical: true, prunable: true }
  if (type !== 'tool') return base
  const state = isObject(part.state) ? part.state : {}
  const status = str(state.status)
  const tool = storage === 'v1' ? str(part.tool) : str(part.name)
  const terminal = (TERMINAL_TOOL_STATUSES as readonly (string | undefined)[]).includes(status)
  const title = str(state.title)
  return {
    ...base,
    technical: true,
    prunable: terminal,
    ...(tool !== undefined ? { tool } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(title ? { title } : {}),
  }
}

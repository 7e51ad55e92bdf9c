import type { V1NativeMessage } from '@loupe/domain'
import { arr, isObject, jsonBytes, num, obj, str, type Json } from './json'
import type { MessageModel, Usage, ViewItem } from './message-model'
import { toImage, toolFromV1 } from './tool-model'

/** 1.x `tokens: {input, output, reasoning, cache: {read, write}}` plus cost and finish reason. */
export function readUsage(tokens: unknown, cost: unknown, reason: unknown): Usage {
  const t = obj(tokens)
  const cache = obj(t.cache)
  const hasTokens = ['input', 'output', 'reasoning'].some((k) => num(t[k]) !== undefined)
  const costValue = num(cost)
  const reasonValue = str(reason)
  return {
    ...(hasTokens
      ? { tokens: { input: num(t.input) ?? 0, output: num(t.output) ?? 0, reasoning: num(t.reasoning) ?? 0, cacheRead: num(cache.read) ?? 0, cacheWrite: num(cache.write) ?? 0 } }
      : {}),
    ...(costValue !== undefined ? { cost: costValue } : {}),
    ...(reasonValue ? { reason: reasonValue } : {}),
  }
}

/** One 1.x part as zero or one view items; unknown types become an `unknown` chip. */
export function itemFromV1Part(part: Json, index: number): ViewItem | undefined {
  const ref = str(part.id) ?? String(index)
  const type = str(part.type) ?? ''
  switch (type) {
    case 'text':
      return { kind: 'text', ref, text: str(part.text) ?? '', synthetic: part.synthetic === true, bytes: jsonBytes(part) }
    case 'reasoning': {
      const time = obj(part.time)
      const start = num(time.start)
      const end = num(time.end)
      return { kind: 'reasoning', ref, text: str(part.text) ?? '', ...(start !== undefined && end !== undefined ? { durationMs: end - start } : {}), bytes: jsonBytes(part) }
    }
    case 'tool':
      return { kind: 'tool', ref, tool: toolFromV1(part), bytes: jsonBytes(part) }
    case 'file': {
      const name = str(part.filename) ?? str(obj(part.source).path) ?? 'file'
      const image = toImage({ url: str(part.url), mime: str(part.mime), name })
      return image ? { kind: 'image', ref, image } : { kind: 'file', ref, name, mime: str(part.mime) ?? '' }
    }
    case 'step-start':
      return undefined
    case 'step-finish':
      return { kind: 'usage', ref, usage: readUsage(part.tokens, part.cost, part.reason) }
    case 'snapshot':
      return { kind: 'note', ref, label: `Snapshot ${(str(part.snapshot) ?? '').slice(0, 8)}`, tone: 'info' }
    case 'patch':
      return { kind: 'patch', ref, files: arr(part.files).filter((f): f is string => typeof f === 'string') }
    case 'agent':
      return { kind: 'note', ref, label: `@${str(part.name) ?? 'agent'}`, tone: 'info' }
    case 'subtask':
      return { kind: 'note', ref, label: `Subtask for @${str(part.agent) ?? 'agent'}: ${str(part.description) ?? ''}`, detail: str(part.prompt), tone: 'info' }
    case 'retry': {
      const error = obj(part.error)
      const message = str(obj(error.data).message) ?? str(error.name) ?? 'provider error'
      return { kind: 'note', ref, label: `Retry ${num(part.attempt) ?? ''}: ${message}`, tone: 'warn' }
    }
    case 'compaction':
      return { kind: 'divider', ref, label: part.auto === true ? 'Context compacted automatically' : 'Context compacted' }
    default:
      return { kind: 'unknown', ref, type: type || '(no type)', bytes: jsonBytes(part) }
  }
}

function errorText(error: unknown): string | undefined {
  if (!isObject(error)) return undefined
  const data = obj(error.data)
  return [str(error.name), str(data.message)].filter(Boolean).join(': ') || 'error'
}

/** A 1.x message: `info` plus parts in id order. */
export function modelFromV1(message: V1NativeMessage): MessageModel {
  const info = obj(message.info)
  const role = str(info.role)
  const time = obj(info.time)
  const model = str(info.modelID) ?? str(obj(info.model).modelID)
  const created = num(time.created)
  const completed = num(time.completed)
  const error = errorText(info.error)
  const agent = str(info.agent) ?? str(info.mode)
  const items = arr(message.parts).flatMap((part, i) => {
    const item = isObject(part) ? itemFromV1Part(part, i) : { kind: 'unknown' as const, ref: String(i), type: typeof part, bytes: jsonBytes(part) }
    return item ? [item] : []
  })
  // A compaction request is a user message holding only a compaction part: show it as a divider.
  const onlyDividers = items.length > 0 && items.every((item) => item.kind === 'divider')
  return {
    id: message.id,
    storage: 'v1',
    role: onlyDividers ? 'event' : role === 'user' ? 'user' : role === 'assistant' ? 'assistant' : 'event',
    type: role === 'assistant' && info.summary === true ? 'summary' : (role ?? 'unknown'),
    ...(created !== undefined ? { createdAt: created } : {}),
    ...(completed !== undefined ? { completedAt: completed } : {}),
    ...(agent ? { agent } : {}),
    ...(model && role === 'assistant' ? { model } : {}),
    ...(error ? { error } : {}),
    items,
    ...(message.omitted ? { omittedBytes: message.omitted.bytes } : {}),
  }
}

import type { V2NativeMessage } from '@loupe/domain'
import { utf8Length } from '../../lib/format'
import { arr, isObject, jsonBytes, num, obj, str, type Json } from './json'
import type { MessageModel, MessageRole, ViewItem } from './message-model'
import { toImage, toolFromV2 } from './tool-model'
import { readUsage } from './v1-model'

/** One 2.x assistant `content[]` item; its index is its address. */
function itemFromContent(item: unknown, index: number): ViewItem {
  const ref = String(index)
  if (!isObject(item)) return { kind: 'unknown', ref, type: typeof item, bytes: jsonBytes(item) }
  const type = str(item.type) ?? ''
  if (type === 'text') return { kind: 'text', ref, text: str(item.text) ?? '', synthetic: false, bytes: jsonBytes(item) }
  if (type === 'reasoning') {
    const time = obj(item.time)
    const start = num(time.created)
    const end = num(time.completed)
    return { kind: 'reasoning', ref, text: str(item.text) ?? '', ...(start !== undefined && end !== undefined ? { durationMs: end - start } : {}), bytes: jsonBytes(item) }
  }
  if (type === 'tool') return { kind: 'tool', ref, tool: toolFromV2(item), bytes: jsonBytes(item) }
  return { kind: 'unknown', ref, type: type || '(no type)', bytes: jsonBytes(item) }
}

/** 2.x user `files[]`: `{uri}` data URLs, or `{data, mime}` base64 as the reference describes. */
function userFiles(data: Json): ViewItem[] {
  return arr(data.files).filter(isObject).map((file, i) => {
    const ref = `files.${i}`
    const name = str(file.name) ?? 'file'
    const image = toImage({ url: str(file.uri), data: str(file.data), mime: str(file.mime), name })
    return image ? { kind: 'image', ref, image } : { kind: 'file', ref, name, mime: str(file.mime) ?? '' }
  })
}

function itemsFor(type: string, data: Json): { role: MessageRole; items: ViewItem[] } {
  const text = str(data.text)
  switch (type) {
    case 'user':
      return { role: 'user', items: [...(text ? [{ kind: 'text' as const, ref: 'text', text, synthetic: false, bytes: jsonBytes(text) }] : []), ...userFiles(data)] }
    case 'assistant': {
      const items = arr(data.content).map(itemFromContent)
      const usage = readUsage(data.tokens, data.cost, data.finish)
      return { role: 'assistant', items: [...items, ...(usage.tokens || usage.cost ? [{ kind: 'usage' as const, ref: 'usage', usage }] : [])] }
    }
    case 'system':
    case 'synthetic':
      return { role: 'system', items: [{ kind: 'note', ref: 'text', label: str(data.description) ?? (type === 'system' ? 'System notice' : 'Synthetic context'), detail: text ?? '', tone: 'info' }] }
    case 'compaction': {
      const status = str(data.status)
      const label = `Context compacted${data.reason === 'auto' ? ' automatically' : ''}${status && status !== 'completed' ? ` (${status})` : ''}`
      const detail = str(data.summary)
      return { role: 'event', items: [{ kind: 'divider', ref: 'summary', label, ...(detail ? { detail } : {}) }] }
    }
    case 'shell': {
      const status = str(data.status) ?? 'unknown'
      const output = str(data.output) ?? null
      const tool = { ...toolFromV2({ name: 'shell', state: { status, input: { command: data.command } } }), output, raw: data, metadata: { exit: data.exit }, outputBytes: output ? utf8Length(output) : 0 }
      return { role: 'user', items: [{ kind: 'tool', ref: 'shell', tool, bytes: jsonBytes(data) }] }
    }
    case 'model-switched': {
      const model = obj(data.model)
      return { role: 'event', items: [{ kind: 'divider', ref: 'model', label: `Model switched to ${str(model.id) ?? str(data.model) ?? 'another model'}` }] }
    }
    case 'agent-switched':
      return { role: 'event', items: [{ kind: 'divider', ref: 'agent', label: `Agent switched to @${str(data.agent) ?? 'agent'}` }] }
    case 'skill':
      return { role: 'system', items: [{ kind: 'note', ref: 'skill', label: `Skill ${str(data.name) ?? str(data.skill) ?? ''}`, ...(text ? { detail: text } : {}), tone: 'info' }] }
    case 'idle':
      return { role: 'event', items: [{ kind: 'divider', ref: 'idle', label: data.outcome === 'failed' ? 'Run ended with a failure' : 'Run finished' }] }
    default:
      return { role: 'event', items: [{ kind: 'unknown', ref: 'message', type: `message type ${type || '(none)'}`, bytes: jsonBytes(data) }] }
  }
}

/** A 2.x `session_message` row in read form: `{id, type, ...data}`. */
export function modelFromV2(message: V2NativeMessage): MessageModel {
  const data = obj(message.message)
  const type = str(data.type) ?? ''
  const time = obj(data.time)
  const model = obj(data.model)
  const created = num(time.created)
  const completed = num(time.completed)
  const error = isObject(data.error) ? (str(data.error.message) ?? str(data.error.type) ?? 'error') : undefined
  const agent = str(data.agent)
  const modelId = str(model.id)
  const { role, items } = itemsFor(type, data)
  return {
    id: message.id,
    storage: 'v2',
    role,
    type: type || 'unknown',
    ...(created !== undefined ? { createdAt: created } : {}),
    ...(completed !== undefined ? { completedAt: completed } : {}),
    ...(agent && type === 'assistant' ? { agent } : {}),
    ...(modelId && type === 'assistant' ? { model: modelId } : {}),
    ...(error ? { error } : {}),
    items,
    ...(message.omitted ? { omittedBytes: message.omitted.bytes } : {}),
  }
}

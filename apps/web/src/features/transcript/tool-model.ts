import { summarizeToolInput } from '@loupe/domain'
import { utf8Length } from '../../lib/format'
import { isValidId } from '../../lib/links'
import { arr, isObject, num, obj, str, type Json } from './json'
import type { ImageView, ToolView } from './message-model'

const IMAGE_MIME = /^image\/(png|jpe?g|gif|webp|avif|bmp|svg\+xml)$/i

/** An image from a data URL or raw base64 plus mime; anything else (file://, http:) is not shown inline. */
export function toImage(source: { url?: string; data?: string; mime?: string; name?: string }): ImageView | undefined {
  const mime = source.mime ?? ''
  let src = source.url
  if (!src && source.data && IMAGE_MIME.test(mime)) src = `data:${mime};base64,${source.data}`
  if (!src || !src.startsWith('data:')) return undefined
  const declared = /^data:([^;,]+)/.exec(src)?.[1] ?? mime
  if (!IMAGE_MIME.test(declared)) return undefined
  const comma = src.indexOf(',')
  const payload = comma >= 0 ? src.length - comma - 1 : src.length
  return { src, mime: declared, ...(source.name ? { name: source.name } : {}), bytes: Math.floor((payload * 3) / 4) }
}

function duration(start: number | undefined, end: number | undefined): number | undefined {
  return start !== undefined && end !== undefined && end >= start ? end - start : undefined
}

/** A 1.x `tool` part: `state.output`, `state.error`, images in `state.attachments[]`. */
export function toolFromV1(part: Json): ToolView {
  const name = str(part.tool) ?? 'tool'
  const state = obj(part.state)
  const time = obj(state.time)
  const output = str(state.output) ?? null
  const input = obj(state.input)
  const readPath = str(input.filePath) ?? str(input.path)
  const images = arr(state.attachments)
    .filter(isObject)
    .map((a) => toImage({ url: str(a.url), mime: str(a.mime), name: str(a.filename) ?? readPath }))
    .filter((i): i is ImageView => i !== undefined)
  const title = str(state.title)
  const ms = duration(num(time.start), num(time.end))
  const child = str(obj(state.metadata).sessionId)
  return {
    name,
    status: str(state.status) ?? 'unknown',
    ...(title ? { title } : {}),
    input: state.input,
    metadata: state.metadata,
    raw: part,
    inputSummary: summarizeToolInput(name, state.input),
    output,
    error: str(state.error) ?? null,
    images,
    outputBytes: (output ? utf8Length(output) : 0) + images.reduce((sum, i) => sum + i.bytes, 0),
    ...(ms !== undefined ? { durationMs: ms } : {}),
    compacted: num(time.compacted) !== undefined,
    ...(child && isValidId(child) ? { childSessionID: child } : {}),
  }
}

/** A 2.x assistant `tool` item: text and file items in `state.content[]`, `state.error.message`. */
export function toolFromV2(item: Json): ToolView {
  const name = str(item.name) ?? 'tool'
  const state = obj(item.state)
  const time = obj(item.time)
  const texts: string[] = []
  const images: ImageView[] = []
  for (const entry of arr(state.content).filter(isObject)) {
    if (entry.type === 'text' && typeof entry.text === 'string') texts.push(entry.text)
    if (entry.type === 'file') {
      const image = toImage({ url: str(entry.uri), mime: str(entry.mime), name: str(entry.name) })
      if (image) images.push(image)
    }
  }
  const output = texts.length ? texts.join('\n') : null
  const error = isObject(state.error) ? (str(state.error.message) ?? JSON.stringify(state.error)) : (str(state.error) ?? null)
  const title = str(state.title)
  const ms = duration(num(time.ran) ?? num(time.created), num(time.completed))
  return {
    name,
    status: str(state.status) ?? 'unknown',
    ...(title ? { title } : {}),
    input: state.input,
    metadata: state.metadata ?? state.structured,
    raw: item,
    inputSummary: summarizeToolInput(name, state.input),
    output,
    error,
    images,
    outputBytes: (output ? utf8Length(output) : 0) + images.reduce((sum, i) => sum + i.bytes, 0),
    ...(ms !== undefined ? { durationMs: ms } : {}),
    compacted: num(time.pruned) !== undefined,
  }
}

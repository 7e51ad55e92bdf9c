import type { StorageGeneration } from './ids.js'
import { messageContent, type NativeMessage } from './native.js'
import { err, ok, type Result } from './result.js'
import { isObject, num } from './json-read.js'

/**
 * How the UI names a part it wants removed, independent of its position: a 1.x part by its part
 * id, a 2.x tool by its call id, a 2.x reasoning item (which has no stable id) by its text and times.
 */
export type PartSelector =
  | { kind: 'id'; id: string }
  | { kind: 'reasoning'; text: string; created?: number; completed?: number }

export type SelectFailure = { reason: 'missing' | 'ambiguous'; detail: string }


/** The selector of a part as read now, or undefined for parts that cannot be named. */
export function selectorOf(part: unknown, storage: StorageGeneration): PartSelector | undefined {
  if (!isObject(part)) return undefined
  if (storage === 'v1' || part.type === 'tool') return typeof part.id === 'string' ? { kind: 'id', id: part.id } : undefined
  if (part.type !== 'reasoning' || typeof part.text !== 'string') return undefined
  const time = isObject(part.time) ? part.time : {}
  const created = num(time.created)
  const completed = num(time.completed)
  return { kind: 'reasoning', text: part.text, ...(created !== undefined ? { created } : {}), ...(completed !== undefined ? { completed } : {}) }
}

function matches(part: unknown, selector: PartSelector, storage: StorageGeneration): boolean {
  if (!isObject(part)) return false
  if (selector.kind === 'id') return part.id === selector.id && (storage === 'v1' || part.type === 'tool')
  if (part.type !== 'reasoning' || part.text !== selector.text) return false
  const time = isObject(part.time) ? part.time : {}
  if (selector.created !== undefined && num(time.created) !== selector.created) return false
  if (selector.completed !== undefined && num(time.completed) !== selector.completed) return false
  return true
}

/**
 * Resolve selectors against a freshly read message to the indexes a prune request sends.
 * Each selector must match exactly one part: none is `missing`, several is `ambiguous`; both refuse.
 */
export function resolveSelectors(message: NativeMessage, selectors: readonly PartSelector[]): Result<number[], SelectFailure> {
  const content = messageContent(message)
  const indexes = new Set<number>()
  for (const selector of selectors) {
    const found: number[] = []
    content.forEach((part, i) => {
      if (matches(part, selector, message.storage)) found.push(i)
    })
    if (found.length === 0) return err({ reason: 'missing', detail: 'A selected part is no longer in this message; reload and select again.' })
    if (found.length > 1) return err({ reason: 'ambiguous', detail: 'Two parts look identical, so Loupe cannot tell which one you meant.' })
    indexes.add(found[0]!)
  }
  return ok([...indexes].sort((a, b) => a - b))
}

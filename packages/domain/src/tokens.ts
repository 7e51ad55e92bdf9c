import type { StorageGeneration } from './ids.js'
import { isObject } from './json-read.js'

/** Exact counts up to this many UTF-16 units; longer text is sampled (head, middle, tail) and scaled. */
const EXACT_CHARS = 48 * 1024
const SAMPLE_CHARS = 12 * 1024
const DATA_URL = /data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/=]+/g

/** Exact tokens of `text` (gpt-tokenizer's o200k_base `countTokens`; the server loads it on first use). */
export type CountTokens = (text: string) => number

export interface TokenEstimator {
  estimateTokens(text: string): number
  estimatePartTokens(part: unknown, storage: StorageGeneration): number
}

/**
 * Estimated model tokens with the given exact counter; inline base64 data URLs are left out
 * (providers receive them as media, not text).
 */
export function estimateTokens(text: string, countTokens: CountTokens): number {
  const plain = text.includes(';base64,') ? text.replace(DATA_URL, '') : text
  if (plain.length <= EXACT_CHARS) return countTokens(plain)
  const mid = Math.floor(plain.length / 2 - SAMPLE_CHARS / 2)
  const samples = [plain.slice(0, SAMPLE_CHARS), plain.slice(mid, mid + SAMPLE_CHARS), plain.slice(-SAMPLE_CHARS)]
  const sampled = samples.reduce((sum, s) => sum + countTokens(s), 0)
  return Math.round((sampled / (SAMPLE_CHARS * 3)) * plain.length)
}

export function createTokenEstimator(countTokens: CountTokens): TokenEstimator {
  return {
    estimateTokens: (text) => estimateTokens(text, countTokens),
    estimatePartTokens: (part, storage) => estimateTokens(modelTextOfPart(part, storage), countTokens),
  }
}

const textOf = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v))

/** What the model would be sent for a part: its text, or a tool's input plus output/error. */
export function modelTextOfPart(part: unknown, storage: StorageGeneration): string {
  if (!isObject(part)) return ''
  if (part.type === 'text' || part.type === 'reasoning') return textOf(part.text)
  if (part.type !== 'tool') return ''
  const state = isObject(part.state) ? part.state : {}
  const input = textOf(state.input)
  if (storage === 'v1') return input + textOf(state.output ?? state.error)
  const content = Array.isArray(state.content)
    ? state.content.map((c) => (isObject(c) && c.type === 'text' ? textOf(c.text) : '')).join('\n')
    : ''
  return input + content + (state.error === undefined ? '' : textOf(state.error))
}

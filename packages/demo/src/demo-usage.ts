import type { JsonObject } from '@loupe/domain'
import type { ModelRef } from './demo-spec.js'
import type { SessionState } from './demo-session.js'

/** USD per 1M tokens, and how the provider reports prompt caching. */
interface ModelProfile {
  input: number
  output: number
  cacheRead: number
  cacheWrite: number
  cache: 'anthropic' | 'openai'
}

const PROFILES: Record<string, ModelProfile> = {
  'anthropic/claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cache: 'anthropic' },
  'anthropic/claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, cache: 'anthropic' },
  'openai/gpt-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0, cache: 'openai' },
  'openai/gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0, cache: 'openai' },
}

export const DEMO_MODELS: readonly ModelRef[] = Object.keys(PROFILES).map((key) => {
  const [providerID = '', modelID = ''] = key.split('/')
  return { providerID, modelID }
})

const profileOf = (model: ModelRef): ModelProfile => PROFILES[`${model.providerID}/${model.modelID}`] ?? (PROFILES['openai/gpt-5'] as ModelProfile)

export interface StepUsage {
  tokens: { total: number; input: number; output: number; reasoning: number; cache: { write: number; read: number } }
  cost: number
}

/**
 * Token accounting for one model call, as OpenCode derives it from the provider's usage block
 * (opencode-storage.md §6.1): `input` is the uncached prompt, `cache.read` the cached prefix,
 * reasoning is billed at the output price. The session's context grows with what the call added.
 */
export function measureStep(s: SessionState, model: ModelRef, sizes: { outputChars: number; reasoningChars: number; resultChars: number }): StepUsage {
  const p = profileOf(model)
  const random = s.ctx.random
  const prompt = s.context.tokens
  const cached = Math.min(s.context.cached, prompt)
  let input: number
  let read: number
  let write = 0
  if (p.cache === 'anthropic') {
    read = cached
    input = Math.min(prompt - read, random.int(1, 12))
    write = prompt - read - input
  } else {
    read = Math.floor(cached / 128) * 128
    input = prompt - read
  }
  const output = Math.ceil(sizes.outputChars / 3.7) + random.int(4, 40)
  const reasoning = sizes.reasoningChars ? Math.ceil((sizes.reasoningChars / 4) * (1 + random.next() * 2.5)) : 0
  const cost = Math.round(((input * p.input + (output + reasoning) * p.output + read * p.cacheRead + write * p.cacheWrite) / 1e6) * 1e10) / 1e10
  s.context.cached = prompt
  s.context.tokens = prompt + output + Math.ceil(Math.min(sizes.resultChars, 200_000) / 3.5)
  return { tokens: { total: input + output + reasoning + read + write, input, output, reasoning, cache: { write, read } }, cost }
}

/** Add one step's usage to the session totals, as the projector does on `step-finish`. */
export function addUsage(s: SessionState, usage: StepUsage): void {
  s.cost += usage.cost
  s.tokens.input += usage.tokens.input
  s.tokens.output += usage.tokens.output
  s.tokens.reasoning += usage.tokens.reasoning
  s.tokens.cacheRead += usage.tokens.cache.read
  s.tokens.cacheWrite += usage.tokens.cache.write
}

export const ZERO_TOKENS: JsonObject = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }

/** Tool-call ids in the calling provider's style. */
export function callIdFor(s: SessionState, model: ModelRef): string {
  return model.providerID === 'anthropic' ? `toolu_01${s.ctx.random.base62(22)}` : `call_${s.ctx.random.base62(24)}`
}

/** Anthropic returns a signature with extended thinking; OpenCode keeps it in the reasoning part. */
export function reasoningMetadata(s: SessionState, model: ModelRef): JsonObject | undefined {
  if (model.providerID !== 'anthropic') return undefined
  return { anthropic: { signature: s.ctx.random.base62(344) } }
}

import type { JsonObject } from '@loupe/domain'
import type { FileChange, StepOptions, StepSpec, ToolSpec } from './demo-spec.js'
import { touchSession, type SessionState } from './demo-session.js'
import { createPart, emitMessage, storeMessage, storePart, updatePart, type AssistantState, type PartState, type UserState } from './demo-messages.js'
import { addUsage, callIdFor, measureStep, reasoningMetadata, ZERO_TOKENS } from './demo-usage.js'
import { runTool } from './demo-tools.js'

/** Stream reasoning or text: one event with empty text at the start, one with the full text at the end. */
function streamText(s: SessionState, a: AssistantState, type: 'reasoning' | 'text', text: string, metadata?: JsonObject): PartState {
  const start = s.ctx.clock.tick(2, 60)
  const part = createPart(s, a.id, { type, text: '', time: { start } }, start)
  const end = s.ctx.clock.tick(5 + text.length / 40, 30 + text.length / 8)
  updatePart(s, part, { type, text, time: { start, end }, ...(metadata ? { metadata } : {}) }, end)
  return part
}

/** Merge this step's changes into the turn's `summary.diffs`: one entry per file, latest patch wins. */
function mergeDiffs(current: FileChange[] | null, changes: FileChange[]): FileChange[] {
  const byFile = new Map((current ?? []).map((d) => [d.file, d]))
  for (const c of changes) {
    const prior = byFile.get(c.file)
    byFile.set(c.file, prior?.status === 'added' ? { ...c, status: 'added' } : c)
  }
  return [...byFile.values()]
}

function runTools(s: SessionState, a: AssistantState, tools: readonly ToolSpec[], opts: StepOptions, parts: PartState[]): { changes: FileChange[]; resultChars: number } {
  const pending = tools.map((spec) => {
    const t = s.ctx.clock.tick(1, 25)
    const part = createPart(s, a.id, { type: 'tool', callID: callIdFor(s, opts.model), tool: spec.tool, state: { status: 'pending', input: {}, raw: '' } }, t)
    parts.push(part)
    return { spec, part }
  })
  const changes: FileChange[] = []
  let resultChars = 0
  for (const { spec, part } of pending) {
    resultChars += runTool(s, a, part, spec, opts)
    if (spec.status === 'completed') changes.push(...(spec.files ?? []))
  }
  return { changes, resultChars }
}

/** One model call: an assistant message and its parts, in the order 1.18.33 records them (§6.2, §8.3). */
export function runStep(s: SessionState, user: UserState, step: StepSpec, opts: StepOptions): AssistantState {
  const clock = s.ctx.clock
  const created = clock.tick(30, 400)
  const a: AssistantState = {
    id: s.ctx.ids.ascending('msg', created), parentID: user.id, created, updated: created, completed: null, agent: opts.agent,
    model: opts.model, summary: opts.summary ?? false, cost: 0, tokens: ZERO_TOKENS, finish: null, error: null,
  }
  emitMessage(s, a, created)
  opts.onStart?.()
  const parts = [createPart(s, a.id, { type: 'step-start', snapshot: s.snapshot }, clock.tick(300, 3500))]
  if (step.reasoning) parts.push(streamText(s, a, 'reasoning', step.reasoning, reasoningMetadata(s, opts.model)))
  if (step.text) parts.push(streamText(s, a, 'text', step.text))
  const { changes, resultChars } = runTools(s, a, step.tools ?? [], opts, parts)
  const outputChars = (step.text?.length ?? 0) + (step.tools ?? []).reduce((n, t) => n + JSON.stringify(t.input).length, 0)
  const usage = measureStep(s, opts.model, { outputChars, reasoningChars: step.reasoning?.length ?? 0, resultChars })
  const before = s.snapshot
  if (changes.length) s.snapshot = s.ctx.random.hex(40)
  const reason = step.finish ?? (step.tools?.length ? 'tool-calls' : 'stop')
  parts.push(createPart(s, a.id, { type: 'step-finish', reason, snapshot: s.snapshot, cost: usage.cost, tokens: usage.tokens }, clock.tick(20, 250)))
  Object.assign(a, { cost: usage.cost, tokens: usage.tokens, finish: reason, error: step.error ?? null })
  emitMessage(s, a, clock.tick(2, 12))
  if (changes.length) {
    const files = [...new Set(changes.map((c) => `${s.project.worktree}/${c.file}`))]
    parts.push(createPart(s, a.id, { type: 'patch', hash: before, files }, clock.tick(20, 120)))
  }
  a.completed = clock.tick(1, 8)
  emitMessage(s, a, a.completed)
  addUsage(s, usage)
  touchSession(s, clock.tick(2, 25))
  if (changes.length) {
    user.diffs = mergeDiffs(user.diffs, changes)
    emitMessage(s, user, clock.tick(5, 80))
  }
  for (const part of parts) storePart(s, part)
  storeMessage(s, a)
  return a
}

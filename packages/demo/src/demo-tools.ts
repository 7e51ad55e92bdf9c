import type { JsonObject } from '@loupe/domain'
import type { StepOptions, ToolSpec } from './demo-spec.js'
import type { SessionState } from './demo-session.js'
import { updatePart, type AssistantState, type PartState } from './demo-messages.js'

const withState = (part: PartState, state: JsonObject): JsonObject => ({ ...part.data, state })

/** `task`: running carries the child's id before the child runs; the output wraps its answer. */
function runTask(s: SessionState, part: PartState, spec: ToolSpec, opts: StepOptions, start: number): { output: string; metadata: JsonObject; title: string } {
  const child = spec.child
  if (!child) throw new Error('task tool without a child session')
  const title = child.description
  const model = { modelID: opts.model.modelID, providerID: opts.model.providerID }
  s.ctx.clock.tick(3, 12)
  const childSession = opts.openChild(child)
  const metadata = { parentSessionId: s.id, sessionId: childSession.id, model }
  const running = { status: 'running', input: spec.input, title, metadata, time: { start } }
  updatePart(s, part, withState(part, running), s.ctx.clock.tick(2, 20))
  childSession.run()
  updatePart(s, part, withState(part, running), s.ctx.clock.tick(5, 40))
  return {
    title,
    metadata: { ...metadata, truncated: false },
    output: `<task id="${childSession.id}" state="completed">\n<task_result>\n${child.result}\n</task_result>\n</task>`,
  }
}

/**
 * Play one tool call from `pending` to its end state: `running` (plus the intermediate `running`
 * states the spec lists, each stored in full as 1.18.33 does, §8.4), then `completed` or `error`.
 * Returns how many characters of result the model will read next.
 */
export function runTool(s: SessionState, a: AssistantState, part: PartState, spec: ToolSpec, opts: StepOptions): number {
  const clock = s.ctx.clock
  const start = clock.tick(3, 30)
  if (spec.tool === 'task' && spec.status === 'completed') {
    const task = runTask(s, part, spec, opts, start)
    const end = clock.tick(20, 200)
    updatePart(s, part, withState(part, { status: 'completed', input: spec.input, output: task.output, title: task.title, metadata: task.metadata, time: { start, end } }), end)
    return task.output.length
  }
  updatePart(s, part, withState(part, { status: 'running', input: spec.input, time: { start } }), start)
  const steps = spec.progress ?? []
  for (const metadata of steps) {
    const t = clock.tick(spec.durationMs / (steps.length + 2), spec.durationMs / (steps.length + 1))
    updatePart(s, part, withState(part, { status: 'running', input: spec.input, metadata, time: { start } }), t)
  }
  const attachments = (spec.attachments ?? []).map((file) => ({
    id: s.ctx.ids.ascending('prt', clock.tick(10, 120)), sessionID: s.id, messageID: a.id, type: 'file', mime: file.mime, url: file.url,
  }))
  const end = clock.tick(spec.durationMs / 4, spec.durationMs / 2 + 5)
  if (spec.status === 'error') {
    updatePart(s, part, withState(part, { status: 'error', input: spec.input, error: spec.error ?? 'Tool execution failed', time: { start, end } }), end)
    return (spec.error ?? '').length
  }
  const state: JsonObject = {
    status: 'completed', input: spec.input, output: spec.output ?? '', title: spec.title ?? '', metadata: spec.metadata ?? {}, time: { start, end },
    ...(attachments.length ? { attachments } : {}),
  }
  updatePart(s, part, withState(part, state), end)
  if (spec.tool === 'todowrite') recordTodos(s, spec.input, end)
  return (spec.output ?? '').length
}

/** `todowrite` also replaces the session's rows in table `todo`. */
function recordTodos(s: SessionState, input: JsonObject, t: number): void {
  const todos = Array.isArray(input.todos) ? (input.todos as JsonObject[]) : []
  s.todos = todos.map((todo, position) => ({
    session_id: s.id, content: String(todo.content), status: String(todo.status), priority: String(todo.priority), position, time_created: t, time_updated: t,
  }))
}

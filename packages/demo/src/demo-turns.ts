import type { ChildSessionSpec, CompactionTurn, ModelRef, PromptTurn, SessionSpec, StepOptions } from './demo-spec.js'
import type { WriterContext } from './demo-rows.js'
import { archiveSession, closeSession, openSession, touchSession, type SessionState } from './demo-session.js'
import { createPart, emitMessage, storeMessage, storePart, type PartState, type UserState } from './demo-messages.js'
import { runStep } from './demo-step.js'
import { summarizeTranscript, type Transcript } from './demo-summary.js'

const ADJECTIVES = ['misty', 'brave', 'calm', 'swift', 'quiet', 'proud', 'gentle', 'crisp', 'shiny', 'kind', 'bold', 'clever', 'eager', 'lucky', 'mighty', 'nimble', 'silent', 'sunny', 'witty', 'cosmic']
const NOUNS = ['otter', 'panda', 'river', 'nebula', 'tiger', 'orchid', 'cactus', 'pixel', 'falcon', 'comet', 'harbor', 'maple', 'lagoon', 'meadow', 'canyon', 'ember', 'glacier', 'willow', 'koala', 'rocket']

/** Subagent sessions may not plan or spawn further subagents (opencode-storage.md §7.4). */
const CHILD_PERMISSION = [
  { permission: 'todowrite', pattern: '*', action: 'deny' },
  { permission: 'task', pattern: '*', action: 'deny' },
]

/** Context a fresh session starts with: system prompt, tool definitions, AGENTS.md. */
const systemTokens = (s: SessionState) => s.ctx.random.int(9_000, 14_500)

/** Compaction kicks in well before a 200k-token window overflows. */
const AUTO_COMPACT_AT = 150_000

interface SessionPlay {
  s: SessionState
  spec: Pick<SessionSpec, 'title' | 'model'>
  transcript: Transcript
}

function stepOptions(play: SessionPlay, agent: string, model: ModelRef): Omit<StepOptions, 'onStart'> {
  return { agent, model, openChild: (child) => openChild(play, child) }
}

/** The first step of a turn: a new session gets its generated title, the user message its `summary`. */
function startTurn(play: SessionPlay, user: UserState, retitle: boolean): void {
  const { s } = play
  if (retitle) {
    s.title = play.spec.title
    touchSession(s, s.ctx.clock.now())
  }
  s.summarized = true
  touchSession(s, s.ctx.clock.tick(40, 400))
  user.diffs ??= []
  emitMessage(s, user, s.ctx.clock.tick(1, 10))
}

function openUser(play: SessionPlay, agent: string, created: number): UserState {
  const { s } = play
  return { id: s.ctx.ids.ascending('msg', created), created, updated: created, agent, model: play.spec.model, diffs: null }
}

function runPrompt(play: SessionPlay, turn: PromptTurn, retitle: boolean): void {
  const { s } = play
  const clock = s.ctx.clock
  if (s.context.tokens > AUTO_COMPACT_AT) runCompaction(play, { kind: 'compaction', auto: true, summary: summarizeTranscript(play.transcript) })
  const user = openUser(play, turn.agent, clock.tick(turn.thinkMs * 0.7, turn.thinkMs * 1.3))
  s.agent = s.parentID ? s.agent : turn.agent
  s.model = { ...play.spec.model, variant: 'default' }
  touchSession(s, clock.tick(1, 6))
  emitMessage(s, user, clock.tick(1, 20))
  const parts: PartState[] = turn.parts.map((p) => createPart(s, user.id, { ...p }, clock.tick(0, 3)))
  touchSession(s, clock.tick(1, 6))
  const text = turn.parts.find((p) => p.type === 'text')
  if (text?.type === 'text') play.transcript.prompts.push(text.text)
  turn.steps.forEach((step, k) => {
    runStep(s, user, step, { ...stepOptions(play, turn.agent, play.spec.model), onStart: k === 0 ? () => startTurn(play, user, retitle) : undefined })
    for (const tool of step.tools ?? []) play.transcript.tools.add(tool.tool)
    for (const tool of step.tools ?? []) for (const f of tool.files ?? []) play.transcript.files.add(`${s.project.worktree}/${f.file}`)
  })
  emitMessage(s, user, clock.tick(5, 60))
  touchSession(s, clock.tick(2, 30))
  for (const part of parts) storePart(s, part)
  storeMessage(s, user)
}

/** A compaction: a user message holding a `compaction` part, answered by a `summary: true` assistant (§7.1). */
function runCompaction(play: SessionPlay, turn: CompactionTurn): void {
  const { s } = play
  const clock = s.ctx.clock
  const user = openUser(play, s.agent ?? 'build', clock.tick(turn.auto ? 200 : 4_000, turn.auto ? 900 : 40_000))
  emitMessage(s, user, clock.tick(0, 3))
  const part = createPart(s, user.id, { type: 'compaction', auto: turn.auto }, clock.tick(1, 4))
  const options = stepOptions(play, 'compaction', play.spec.model)
  runStep(s, user, { text: turn.summary }, { ...options, summary: true, onStart: () => startTurn(play, user, false) })
  s.context = { tokens: systemTokens(s) + Math.ceil(turn.summary.length / 3.5), cached: 0 }
  emitMessage(s, user, clock.tick(5, 40))
  storePart(s, part)
  storeMessage(s, user)
}

/** A `task` subagent: a child session with its own log, created while the parent's tool runs. */
function openChild(parent: SessionPlay, child: ChildSessionSpec): { id: string; run(): void } {
  const ps = parent.s
  const s = openSession(ps.ctx, {
    project: ps.project, directory: ps.directory, slug: makeSlug(ps.ctx), parentID: ps.id,
    title: `${child.description} (@${child.agent} subagent)`, agent: child.agent, permission: CHILD_PERMISSION, snapshot: ps.snapshot,
  })
  s.context = { tokens: ps.ctx.random.int(6_000, 9_000), cached: 0 }
  const play: SessionPlay = { s, spec: { title: s.title, model: parent.spec.model }, transcript: { prompts: [], tools: new Set(), files: new Set() } }
  return {
    id: s.id,
    run: () => {
      runPrompt(play, { kind: 'prompt', agent: child.agent, parts: [{ type: 'text', text: child.prompt }], steps: child.steps, thinkMs: 12 }, false)
      closeSession(s)
    },
  }
}

export function makeSlug(ctx: WriterContext): string {
  return `${ctx.random.pick(ADJECTIVES)}-${ctx.random.pick(NOUNS)}`
}

/** Play a whole top-level session from `startAt` (or later, if the clock is already past it). */
export function playSession(ctx: WriterContext, spec: SessionSpec, startAt: number): string {
  ctx.clock.jumpTo(startAt)
  const s = openSession(ctx, { project: spec.project, directory: spec.directory, slug: makeSlug(ctx), metadata: spec.metadata, snapshot: ctx.random.hex(40) })
  s.context = { tokens: systemTokens(s), cached: 0 }
  const play: SessionPlay = { s, spec, transcript: { prompts: [], tools: new Set(), files: new Set() } }
  let first = true
  for (const turn of spec.turns) {
    if (turn.kind === 'compaction') runCompaction(play, turn)
    else runPrompt(play, turn, first)
    if (turn.kind === 'prompt') first = false
  }
  if (spec.archived) archiveSession(s, ctx.clock.tick(120_000, 2_400_000))
  closeSession(s)
  return s.id
}

import { LIMITS, messageCompletedAt, messageContent, overEditLimit, messageRole, previewPrune, sumPrunable, type NativeMessage, type PrunablePart, type PruneBlock, type PruneBlockReason, type StorageGeneration } from '@loupe/domain'
import { AppError } from '../../errors.js'
import { nodeDigest } from '../../lib/hash.js'
import type { SqliteDb } from '../../lib/sqlite.js'
import type { MessageSlot, OpenCodeStore } from '../../store/store.js'
import { checkMedia, checkWriteTarget, fenceSession } from './fences.js'
import { checkLiveSession, type LiveLock, type LiveVerdict } from '../../opencode/live-guard.js'
import { pruneContext, type PruneContext } from './prune-context.js'
import { memoPartTokens } from './token-memo.js'
import type { PruningDeps } from './pruning.deps.js'
import type { SessionPlanInput } from './pruning.schema.js'

/** One message as a whole-message cleanup candidate, or why it is not one. Stable: search uses it. */
export type MessagePlan =
  | {
      messageID: string
      status: 'candidate'
      revision: string
      toolCount: number
      reasoningCount: number
      bytes: number
      tokens: number
      /** Before the latest completed compaction: the model no longer reads it, so its tokens free storage, not context. */
      storageOnly: boolean
      /** When the message finished (epoch ms), and its tools' distinct names: what a person recognizes. */
      completedAt: number | null
      tools: string[]
      /** Only these technical parts (a search's matches), or, when absent, all of them. */
      indexes?: number[]
    }
  | { messageID: string; status: 'blocked'; reason: PruneBlockReason; detail: string }

const PAGE = 100

const NOTHING = 'No tool calls or reasoning to remove.'

/**
 * Which technical parts a plan covers: `select` keeps only matching parts (a search's matches, a
 * size rule) and then the plan names their indexes; `media` refuses a message the preview would
 * (media in blob tables Loupe does not recognize), as a plan of chosen parts quotes the preview.
 */
export interface PartSelection {
  select?: (native: NativeMessage) => ((part: PrunablePart) => boolean) | undefined
  media?: boolean
}

/**
 * What making a plan reads: the file, why no write could land in it now, and part token counts. On
 * the server's thread it is the server's connection; a whole-DB plan runs in a worker thread with its
 * own connection and the server's answer about the write target (clean-plan.worker.ts).
 */
export interface PlanReader {
  db: SqliteDb
  writeTarget(ctx: PruneContext): PruneBlock | undefined
  partTokens(part: unknown, storage: StorageGeneration): number
}

export const planReaderOf = (deps: PruningDeps): PlanReader => ({
  db: deps.opencode.db,
  writeTarget: (ctx) => checkWriteTarget(deps.opencode, ctx.store.prune),
  partTokens: (part, storage) => memoPartTokens(deps.pruning.tokens, deps.tokenizer, part, storage),
})

function planOne(store: OpenCodeStore, reader: PlanReader, native: NativeMessage, storageOnly: boolean, selection: PartSelection): MessagePlan {
  const media = selection.media ? checkMedia(store.prune, native) : undefined
  if (media) return { messageID: native.id, status: 'blocked', reason: media.reason, detail: media.detail }
  // Tokens are estimated after the selection: tokenizing is most of a plan's CPU, and a size rule keeps few parts.
  const preview = previewPrune(native, { digest: nodeDigest })
  if (!preview.ok) return { messageID: native.id, status: 'blocked', reason: preview.error.reason, detail: preview.error.detail }
  const keep = selection.select?.(native)
  const content = messageContent(native)
  const parts = (keep ? preview.value.parts.filter(keep) : preview.value.parts)
    .map((p) => ({ ...p, tokens: reader.partTokens(content[p.index], native.storage) }))
  const sum = sumPrunable(parts)
  if (sum.count === 0) return { messageID: native.id, status: 'blocked', reason: 'not_deletable', detail: NOTHING }
  const tools = [...new Set(parts.flatMap((p) => (p.tool ? [p.tool] : [])))]
  return {
    messageID: native.id,
    status: 'candidate',
    revision: preview.value.revision,
    toolCount: sum.tools,
    reasoningCount: sum.reasoning,
    bytes: sum.bytes,
    tokens: sum.tokens,
    storageOnly,
    completedAt: messageCompletedAt(native) ?? null,
    tools,
    ...(keep ? { indexes: parts.map((p) => p.index) } : {}),
  }
}

function planSlots(reader: PlanReader, ctx: PruneContext, slots: readonly MessageSlot[], selection: PartSelection = {}): { plans: MessagePlan[]; natives: NativeMessage[] } {
  const { db } = reader
  const plans: MessagePlan[] = []
  const loadable = slots.filter((s) => s.bytes <= LIMITS.messageStoredBytes).map((s) => s.key.id)
  const natives = ctx.store.loadMessages(db, ctx.session.id, loadable, { canonical: true })
  const byId = new Map(natives.map((m) => [m.id as string, m]))
  const storageOnly = ctx.store.prune.storageOnlyMessages(db, ctx.session.id)
  for (const slot of slots) {
    const native = byId.get(slot.key.id)
    if (native) plans.push(planOne(ctx.store, reader, native, storageOnly.has(slot.key.id), selection))
    else plans.push({ messageID: slot.key.id, status: 'blocked', reason: 'not_deletable', detail: overEditLimit(slot.bytes) })
  }
  return { plans, natives }
}

/**
 * Candidates for the given messages of one session (for clean-up from search results):
 * `{messageID, revision, toolCount, reasoningCount, bytes, tokens}` or why not. With `parts`
 * (message id → part keys), a message's candidate covers only those technical parts, with their
 * indexes. Messages not in the session answer `not_deletable`.
 */
export function planMessages(deps: PruningDeps, input: { sessionID: string; storage?: StorageGeneration; messageIDs: readonly string[]; parts?: ReadonlyMap<string, ReadonlySet<string>> }): MessagePlan[] {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) return input.messageIDs.map((messageID) => ({ messageID, status: 'blocked', reason: ctx.reason, detail: ctx.detail }))
  const { db } = deps.opencode
  return db.read(() => {
    const slots: MessageSlot[] = []
    const missing = new Set<string>()
    for (const id of input.messageIDs) {
      const key = ctx.store.findMessageKey(db, ctx.session.id, id)
      const slot = key && ctx.store.messageSlots(db, ctx.session.id, { kind: 'at', key }, 1)[0]
      if (slot) slots.push(slot)
      else missing.add(id)
    }
    const { parts } = input
    const select = parts ? (native: NativeMessage) => {
      const only = parts.get(native.id)
      return only ? (p: PrunablePart) => only.has(ctx.store.partKeyAt(native, p.index)) : undefined
    } : undefined
    const planned = new Map(planSlots(planReaderOf(deps), ctx, slots, { select }).plans.map((p) => [p.messageID, p]))
    return input.messageIDs.map((messageID): MessagePlan =>
      planned.get(messageID) ?? { messageID, status: 'blocked', reason: 'not_deletable', detail: 'This message is not in the session.' })
  })
}

export interface ForkPlan {
  sessionID: string
  title: string | null
  candidates: Extract<MessagePlan, { status: 'candidate' }>[]
  bytes: number
  tokens: number
}

export interface SessionPlan {
  sessionID: string
  storage: StorageGeneration
  /** Why no prune can run in this session right now (null: it can). */
  block: PruneBlock | null
  /** Set when OpenCode may be running the session (then `block` says so too): why, and the fix. */
  lock: LiveLock | null
  live: LiveVerdict
  candidates: Extract<MessagePlan, { status: 'candidate' }>[]
  blocked: Extract<MessagePlan, { status: 'blocked' }>[]
  /**
   * Forks holding verbatim copies of candidates (2.x forks copy the parent's rows): each copy planned
   * in its own session, so a clean-up that includes them prunes each fork with its own revisions,
   * fences, live check and receipts. Left alone unless the person asks (forks stay isolated).
   */
  forks: ForkPlan[]
  /** `tokens` = `contextTokens` (the model still reads them) + `storageOnlyTokens` (before the latest completed compaction). */
  totals: { messages: number; assistantMessages: number; candidates: number; tools: number; reasoning: number; bytes: number; tokens: number; contextTokens: number; storageOnlyTokens: number }
}

/**
 * What cleaning the whole session would remove, before anything happens: every finished assistant
 * message's technical parts with revisions, so the UI can run it in batches of 16 with progress.
 */
export async function sessionPlan(deps: PruningDeps, input: SessionPlanInput): Promise<SessionPlan> {
  const ctx = pruneContext(deps.opencode, input.sessionID, input.storage)
  if ('status' in ctx) throw new AppError('unsupported_storage', ctx.detail)
  const plan = planSessionWith(planReaderOf(deps), ctx, await checkLiveSession(deps, ctx))
  return { ...plan, forks: planForks(deps, ctx, plan) }
}

/** The forks' copies of the plan's candidates, each planned where it lives. */
function planForks(deps: PruningDeps, ctx: PruneContext, plan: SessionPlan): ForkPlan[] {
  const { db } = deps.opencode
  const copies = db.read(() => ctx.store.prune.forkCopies(db, ctx.session.id, plan.candidates.map((c) => c.messageID)))
  const bySession = new Map<string, { title: string | null; messageIDs: string[] }>()
  for (const c of copies) {
    const entry = bySession.get(c.sessionID) ?? { title: c.title, messageIDs: [] }
    entry.messageIDs.push(c.messageID)
    bySession.set(c.sessionID, entry)
  }
  return [...bySession].flatMap(([sessionID, { title, messageIDs }]) => {
    const candidates = planMessages(deps, { sessionID, storage: ctx.session.storage, messageIDs }).flatMap((p) => (p.status === 'candidate' ? [p] : []))
    if (candidates.length === 0) return []
    return [{ sessionID, title, candidates, bytes: candidates.reduce((n, c) => n + c.bytes, 0), tokens: candidates.reduce((n, c) => n + c.tokens, 0) }]
  })
}

/**
 * sessionPlan on a live verdict the caller already has: a DB-wide plan asks checkLive once for all
 * its sessions. Read-only and synchronous; `selection` narrows each candidate to chosen parts.
 */
export function planSessionWith(reader: PlanReader, ctx: PruneContext, live: LiveVerdict, selection: PartSelection = {}): SessionPlan {
  const lock = live.state === 'locked' ? live.lock : null
  const { db } = reader
  return db.read(() => {
    const block = (lock ? { reason: 'maintenance_required' as const, detail: `${lock.detail} ${lock.fix}` } : null) ??
      reader.writeTarget(ctx) ?? fenceSession(ctx.store.prune.sessionFence(db, ctx.session.id)) ?? null
    const plan: SessionPlan = {
      sessionID: ctx.session.id,
      storage: ctx.session.storage,
      block,
      lock,
      live,
      candidates: [],
      blocked: [],
      forks: [],
      totals: { messages: 0, assistantMessages: 0, candidates: 0, tools: 0, reasoning: 0, bytes: 0, tokens: 0, contextTokens: 0, storageOnlyTokens: 0 },
    }
    let slots = ctx.store.messageSlots(db, ctx.session.id, { kind: 'earliest' }, PAGE)
    while (slots.length > 0) {
      const { plans, natives } = planSlots(reader, ctx, slots, selection)
      const roles = new Map(natives.map((m) => [m.id as string, messageRole(m)]))
      plan.totals.messages += slots.length
      for (const p of plans) {
        const role = roles.get(p.messageID)
        if (role !== undefined && role !== 'assistant') continue
        plan.totals.assistantMessages++
        if (p.status === 'blocked') {
          if (p.detail !== NOTHING) plan.blocked.push(p)
          continue
        }
        plan.candidates.push(p)
        plan.totals.candidates++
        plan.totals.tools += p.toolCount
        plan.totals.reasoning += p.reasoningCount
        plan.totals.bytes += p.bytes
        plan.totals.tokens += p.tokens
        if (p.storageOnly) plan.totals.storageOnlyTokens += p.tokens
        else plan.totals.contextTokens += p.tokens
      }
      const last = slots.at(-1)
      slots = last ? ctx.store.messageSlots(db, ctx.session.id, { kind: 'after', key: last.key }, PAGE) : []
    }
    return plan
  })
}

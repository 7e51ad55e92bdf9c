import { describe, expect, it } from 'vitest'
import type { MessageID } from './ids.js'
import type { NativeMessage, V1NativeMessage, V2NativeMessage } from './native.js'
import { checkIndexes, planPrune, previewPrune, sumPrunable } from './prune-plan.js'
import { parseReceipt, pruneReceiptKey } from './prune-receipt.js'
import { resolveSelectors, selectorOf } from './prune-select.js'
import { computeRevision } from './revision.js'

const ids = { sessionID: 'ses_1', messageID: 'msg_1' }
const part = (id: string, data: Record<string, unknown>) => ({ ...data, id, ...ids })
const bash = (id: string, status = 'completed') =>
  part(id, { type: 'tool', tool: 'bash', callID: `call_${id}`, state: { status, input: { command: 'ls' }, output: 'a\nb', title: 'ls', metadata: {}, time: { start: 1, end: 2 } } })

function v1(parts: Record<string, unknown>[], info: Record<string, unknown> = {}): V1NativeMessage {
  return {
    storage: 'v1',
    id: 'msg_1' as MessageID,
    info: { id: 'msg_1', sessionID: 'ses_1', role: 'assistant', time: { created: 1, completed: 9 }, ...info },
    parts,
  }
}
const standard = () =>
  v1([
    part('prt_1', { type: 'step-start' }),
    part('prt_2', { type: 'reasoning', text: 'thinking', time: { start: 1, end: 2 } }),
    part('prt_3', { type: 'text', text: 'hello' }),
    bash('prt_4'),
    part('prt_5', { type: 'tool', tool: 'read', callID: 'c5', state: { status: 'error', input: {}, error: 'nope', time: { start: 1, end: 2 } } }),
    part('prt_6', { type: 'step-finish', reason: 'stop', cost: 0, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } }),
  ])

function v2(content: unknown[], data: Record<string, unknown> = {}): V2NativeMessage {
  return { storage: 'v2', id: 'msg_2' as MessageID, seq: 3, message: { id: 'msg_2', type: 'assistant', time: { created: 1, completed: 5 }, content, ...data } }
}
const v2Tool = (id: string, status = 'completed') => ({ type: 'tool', id, name: 'bash', state: { status, input: {}, content: [{ type: 'text', text: 'out' }] }, time: { created: 1 } })
const v2Reasoning = (text: string, created = 1) => ({ type: 'reasoning', text, time: { created, completed: created + 1 } })

describe('previewPrune', () => {
  it('lists completed/errored tools and reasoning, never text, step parts or anything else', () => {
    const preview = previewPrune(standard(), { estimateTokens: () => 7 })
    expect(preview.ok).toBe(true)
    if (!preview.ok) return
    expect(preview.value.parts.map((p) => [p.index, p.type, p.tool, p.status])).toEqual([
      [1, 'reasoning', undefined, undefined],
      [3, 'tool', 'bash', 'completed'],
      [4, 'tool', 'read', 'error'],
    ])
    expect(preview.value.parts.every((p) => p.tokens === 7 && p.bytes > 10)).toBe(true)
    expect(preview.value.parts[1]!.title).toBe('ls')
    expect(preview.value.revision).toBe(computeRevision(standard().parts))
    expect(sumPrunable(preview.value.parts)).toMatchObject({ tools: 2, reasoning: 1, count: 3, tokens: 21 })
  })

  it('measures bytes as the part serialized as JSON', () => {
    const message = standard()
    const preview = previewPrune(message)
    if (!preview.ok) throw new Error('blocked')
    expect(preview.value.parts[1]!.bytes).toBe(new TextEncoder().encode(JSON.stringify(message.parts[3])).length)
  })

  it.each<[string, NativeMessage]>([
    ['a user message', v1([part('prt_1', { type: 'text', text: 'hi' })], { role: 'user' })],
    ['an unfinished message', v1([bash('prt_1')], { time: { created: 1 } })],
    ['a message whose completion time is not a number', v1([bash('prt_1')], { time: { created: 1, completed: 'soon' } })],
    ['a running tool', v1([bash('prt_1'), bash('prt_2', 'running')])],
    ['a pending tool', v1([bash('prt_1', 'pending')])],
    ['a part kind Loupe does not know', v1([bash('prt_1'), part('prt_2', { type: 'hologram' })])],
    ['a part without a type', v1([bash('prt_1'), part('prt_2', {})])],
    ['a message too large to load', { ...standard(), omitted: { reason: 'limit', bytes: 17 * 1024 * 1024 } }],
    ['a 2.x row that is not an assistant', v2([], { type: 'user' })],
    ['a 2.x message without content', v2([], { content: undefined })],
    ['a 2.x file item (unknown content kind)', v2([v2Tool('call_1'), { type: 'file', uri: 'data:,' }])],
    ['a 2.x streaming tool', v2([v2Tool('call_1', 'streaming')])],
    ['a message whose content serializes over 16 MiB', v1([part('prt_1', { type: 'text', text: 'x'.repeat(16 * 1024 * 1024) })])],
  ])('refuses %s as not_deletable', (_name, message) => {
    const preview = previewPrune(message)
    expect(preview).toMatchObject({ ok: false, error: { reason: 'not_deletable' } })
  })

  it('previews a 2.x message over data.content', () => {
    const message = v2([v2Reasoning('r'), { type: 'text', text: 't' }, v2Tool('call_1'), v2Tool('call_2', 'error')])
    const preview = previewPrune(message)
    if (!preview.ok) throw new Error(preview.error.detail)
    expect(preview.value.parts.map((p) => p.index)).toEqual([0, 2, 3])
    expect(preview.value.revision).toBe(computeRevision(message.message.content))
  })
})

describe('planPrune', () => {
  const revision = computeRevision(standard().parts)

  it('removes exactly the selected parts and hashes the survivors', () => {
    const plan = planPrune(standard(), { revision, selection: { kind: 'indexes', indexes: [4, 1] } })
    if (!plan.ok) throw new Error(plan.error.detail)
    expect(plan.value.removed).toEqual([1, 4])
    expect(plan.value.kept).toEqual([0, 2, 3, 5])
    expect(plan.value.survivors.map((p) => (p as { id: string }).id)).toEqual(['prt_1', 'prt_3', 'prt_4', 'prt_6'])
    expect(plan.value.nextRevision).toBe(computeRevision(plan.value.survivors))
  })

  it('takes every technical part in the bulk form', () => {
    const plan = planPrune(standard(), { revision, selection: { kind: 'allTechnical' } })
    expect(plan.ok && plan.value.removed).toEqual([1, 3, 4])
  })

  it.each<[string, string, readonly number[], string]>([
    ['a stale revision', 'f'.repeat(64), [1], 'conflict'],
    ['a text part', revision, [2], 'not_deletable'],
    ['a step-finish part', revision, [5], 'not_deletable'],
    ['an index past the end', revision, [6], 'not_deletable'],
    ['a repeated index', revision, [1, 1], 'not_deletable'],
    ['no index', revision, [], 'not_deletable'],
    ['a negative index', revision, [-1], 'not_deletable'],
    ['a fractional index', revision, [1.5], 'not_deletable'],
    ['an index over 100,000', revision, [100_001], 'not_deletable'],
  ])('refuses %s', (_name, rev, indexes, reason) => {
    expect(planPrune(standard(), { revision: rev, selection: { kind: 'indexes', indexes } })).toMatchObject({ ok: false, error: { reason } })
  })

  it('refuses the bulk form when nothing technical is left', () => {
    const message = v1([part('prt_1', { type: 'text', text: 'only text' })])
    const plan = planPrune(message, { revision: computeRevision(message.parts), selection: { kind: 'allTechnical' } })
    expect(plan).toMatchObject({ ok: false, error: { reason: 'not_deletable' } })
  })
})

describe('checkIndexes', () => {
  it('accepts 100,001 unique indexes and sorts them', () => {
    const all = Array.from({ length: 100_001 }, (_, i) => 100_000 - i)
    const checked = checkIndexes(all)
    expect(checked.ok && checked.value[0]).toBe(0)
    expect(checkIndexes([...all, 5]).ok).toBe(false)
  })
})

describe('pruneReceiptKey', () => {
  const base = { storage: 'v1' as const, sessionID: 'ses_1', messageID: 'msg_1', revision: 'a'.repeat(64) }
  it('ignores index order but not the indexes, the revision or the bulk form', () => {
    const key = pruneReceiptKey({ ...base, indexes: [3, 1] })
    expect(pruneReceiptKey({ ...base, indexes: [1, 3] })).toBe(key)
    expect(pruneReceiptKey({ ...base, indexes: [1] })).not.toBe(key)
    expect(pruneReceiptKey({ ...base, revision: 'b'.repeat(64), indexes: [1, 3] })).not.toBe(key)
    expect(pruneReceiptKey({ ...base, allTechnical: true })).not.toBe(key)
    expect(key).toMatch(/^[a-f0-9]{64}$/)
  })

  it('parses only a pruned receipt for the same message', () => {
    const text = JSON.stringify({ status: 'pruned', messageID: 'msg_1', revision: 'r', removedCount: 2 })
    expect(parseReceipt(text, 'msg_1')).toEqual({ status: 'pruned', messageID: 'msg_1', revision: 'r', removedCount: 2 })
    expect(parseReceipt(text, 'msg_2')).toBeUndefined()
    expect(parseReceipt('{', 'msg_1')).toBeUndefined()
  })
})

describe('resolveSelectors', () => {
  it('finds 1.x parts by id wherever they moved', () => {
    const message = standard()
    const selectors = [selectorOf(message.parts[4], 'v1')!, selectorOf(message.parts[1], 'v1')!]
    const moved = v1([message.parts[4]!, message.parts[0]!, message.parts[1]!])
    expect(resolveSelectors(moved, selectors)).toEqual({ ok: true, value: [0, 2] })
  })

  it('finds 2.x tools by call id and reasoning by text and time', () => {
    const message = v2([v2Reasoning('a'), v2Tool('call_1'), v2Reasoning('b')])
    const selectors = [selectorOf(message.message.content && (message.message.content as unknown[])[2], 'v2')!, { kind: 'id' as const, id: 'call_1' }]
    expect(resolveSelectors(message, selectors)).toEqual({ ok: true, value: [1, 2] })
  })

  it('refuses ambiguous reasoning and parts that are gone', () => {
    const twins = v2([v2Reasoning('same'), v2Reasoning('same')])
    expect(resolveSelectors(twins, [{ kind: 'reasoning', text: 'same', created: 1 }])).toMatchObject({ ok: false, error: { reason: 'ambiguous' } })
    expect(resolveSelectors(twins, [{ kind: 'id', id: 'call_9' }])).toMatchObject({ ok: false, error: { reason: 'missing' } })
  })
})

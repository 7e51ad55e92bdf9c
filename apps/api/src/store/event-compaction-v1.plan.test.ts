import { describe, expect, it } from 'vitest'
import { minimalMessageInfo, minimalPartSnapshot, minimalSessionInfo, planSessionCompaction, type ScannedEvent } from './event-compaction-v1.plan.js'

const ids = { id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1' }
const session = { id: 'ses_1', slug: 's', projectID: 'p', directory: '/d', title: 'T', version: '1.18.33', time: { created: 1, updated: 2 } }

const partRow = (seq: number, part: Record<string, unknown>, data?: string): ScannedEvent => ({
  id: `evt_${seq}`,
  seq,
  type: 'message.part.updated.1',
  bytes: (data ?? JSON.stringify({ sessionID: 'ses_1', part, time: 5 })).length,
  fields: JSON.stringify([part.id, part.type, part.sessionID, part.messageID, part.callID ?? null, part.tool ?? null, (part.time as { start?: number } | undefined)?.start ?? null]),
  rest: JSON.stringify({ sessionID: 'ses_1', time: 5 }),
  small: data ?? null,
  valid: 1,
})
const otherRow = (seq: number, type: string, valid = 1): ScannedEvent => ({ id: `evt_${seq}`, seq, type, bytes: 10, fields: null, rest: null, small: null, valid })

describe('minimalPartSnapshot', () => {
  it.each([
    ['tool', { ...ids, type: 'tool', callID: 'c', tool: 'bash', state: { status: 'running', input: { command: 'x' } } }, { ...ids, type: 'tool', callID: 'c', tool: 'bash', state: { status: 'pending', input: {}, raw: '' } }],
    ['reasoning', { ...ids, type: 'reasoning', text: 'long', time: { start: 3, end: 4 } }, { ...ids, type: 'reasoning', text: '', time: { start: 3 } }],
    ['text', { ...ids, type: 'text', text: 'long', time: { start: 3 } }, { ...ids, type: 'text', text: '' }],
  ])('redacts a %s part to its identity', (_name, part, minimal) => {
    expect(minimalPartSnapshot(part)).toEqual(minimal)
  })

  it.each([
    ['step-finish (its projection re-accounts usage)', { ...ids, type: 'step-finish', cost: 1, tokens: {} }],
    ['an unknown type', { ...ids, type: 'hologram' }],
    ['a tool without its call id', { ...ids, type: 'tool', tool: 'bash' }],
    ['a part without its message id', { id: 'prt_1', sessionID: 'ses_1', type: 'text', text: '' }],
  ])('has no minimal form for %s', (_name, part) => {
    expect(minimalPartSnapshot(part)).toBeUndefined()
  })
})

describe('minimalMessageInfo', () => {
  it('keeps the required fields of a user message and drops the rest', () => {
    const info = { id: 'msg_1', sessionID: 'ses_1', role: 'user', time: { created: 7 }, agent: 'build', model: { providerID: 'p', modelID: 'm', variant: 'v' }, summary: { diffs: [{ file: 'a', before: 'x'.repeat(1000) }] } }
    expect(minimalMessageInfo(info)).toEqual({ id: 'msg_1', sessionID: 'ses_1', role: 'user', time: { created: 7 }, agent: 'build', model: { providerID: 'p', modelID: 'm' } })
  })

  it('answers undefined for a role it does not know', () => {
    expect(minimalMessageInfo({ id: 'msg_1', sessionID: 'ses_1', role: 'system', time: { created: 7 }, agent: 'build' })).toBeUndefined()
  })
})

describe('minimalSessionInfo', () => {
  it('keeps what the newest snapshot would not overwrite', () => {
    const early = { ...session, agent: 'plan', summary: { additions: 1, deletions: 0, files: 1, diffs: [] }, cost: 3, time: { created: 1, updated: 2, archived: 9, compacting: 8 } }
    const newest = { ...session, agent: 'build', summary: { additions: 2, deletions: 0, files: 1 }, time: { created: 1, updated: 5, compacting: 10 } }
    expect(minimalSessionInfo(early, newest)).toEqual({ ...session, summary: early.summary, time: { created: 1, updated: 2, archived: 9 } })
  })
})

describe('planSessionCompaction', () => {
  const pending = { ...ids, type: 'tool', callID: 'c', tool: 'bash', state: { status: 'pending', input: {}, raw: '' } }
  const running = { ...pending, state: { status: 'running', input: { command: 'x' }, metadata: { output: 'y'.repeat(500) } } }

  it('redacts all but the newest snapshot, counts minimal ones and unknown types, and writes the whole payload', () => {
    const rows = [partRow(0, pending, JSON.stringify({ sessionID: 'ses_1', part: pending, time: 5 })), partRow(1, running), partRow(2, running), otherRow(3, 'session.next.step.started.1')]
    const outcome = planSessionCompaction('ses_1', rows)
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    expect(outcome.plan).toMatchObject({ alreadyRedacted: 1, unknownTypes: 1, kept: 0, newest: ['evt_2'] })
    expect(outcome.plan.redactions.map((r) => r.seq)).toEqual([1])
    expect(JSON.parse(outcome.plan.redactions[0]!.data!)).toEqual({ sessionID: 'ses_1', part: pending, time: 5 })
  })

  it('fails the whole session on an event that is not JSON, or a snapshot of another session', () => {
    expect(planSessionCompaction('ses_1', [partRow(0, running), otherRow(1, 'message.removed.1', 0)])).toMatchObject({ ok: false, reason: expect.stringMatching(/not valid JSON/) })
    expect(planSessionCompaction('ses_1', [partRow(0, { ...running, sessionID: 'ses_2' })])).toMatchObject({ ok: false })
  })

  it('lists redactions and the snapshots they rely on in seq order, whatever order the log is read in', () => {
    const other = { ...running, id: 'prt_2', callID: 'd' }
    const rows = [partRow(0, other), partRow(1, running), partRow(2, other), partRow(3, running), partRow(4, running), partRow(5, other)]
    const outcome = planSessionCompaction('ses_1', rows)
    expect(outcome.ok && outcome.plan.redactions.map((r) => r.seq)).toEqual([0, 1, 2, 3])
    expect(outcome.ok && outcome.plan.newest).toEqual(['evt_5', 'evt_4'])
    expect(outcome).toMatchObject({ plan: { events: 6, eventBytes: rows.reduce((sum, r) => sum + r.bytes, 0) } })
  })

  it('names the earliest event it cannot read', () => {
    const rows = [partRow(0, running), otherRow(1, 'message.removed.1', 0), partRow(2, running), otherRow(3, 'message.removed.1', 0)]
    expect(planSessionCompaction('ses_1', rows)).toEqual({ ok: false, reason: 'event 1 (message.removed.1) is not valid JSON' })
  })
})

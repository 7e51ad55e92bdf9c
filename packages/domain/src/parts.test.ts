import { describe, expect, it } from 'vitest'
import { classifyPart } from './parts.js'

describe('classifyPart', () => {
  it.each([
    ['v1 text', 'v1', { type: 'text', text: 'hi' }, { kind: 'text', technical: false, prunable: false }],
    ['v1 reasoning', 'v1', { type: 'reasoning', text: '…', time: { start: 1 } }, { kind: 'reasoning', technical: true, prunable: true }],
    ['v1 completed tool', 'v1', { type: 'tool', tool: 'bash', state: { status: 'completed', title: 'ls' } }, { kind: 'tool', tool: 'bash', status: 'completed', title: 'ls', prunable: true }],
    ['v1 error tool', 'v1', { type: 'tool', tool: 'read', state: { status: 'error' } }, { kind: 'tool', status: 'error', prunable: true }],
    ['v1 running tool', 'v1', { type: 'tool', tool: 'bash', state: { status: 'running' } }, { kind: 'tool', technical: true, prunable: false }],
    ['v1 step-finish', 'v1', { type: 'step-finish', tokens: {} }, { kind: 'step-finish', technical: false, prunable: false }],
    ['v1 compaction', 'v1', { type: 'compaction', auto: false }, { kind: 'compaction', known: true }],
    ['v1 unknown', 'v1', { type: 'hologram' }, { kind: 'unknown', known: false, type: 'hologram', prunable: false }],
    ['v2 tool', 'v2', { type: 'tool', name: 'read', state: { status: 'completed' } }, { kind: 'tool', tool: 'read', prunable: true }],
    ['v2 file is not a content kind', 'v2', { type: 'file' }, { kind: 'unknown', known: false }],
    ['v2 streaming tool', 'v2', { type: 'tool', name: 'bash', state: { status: 'streaming' } }, { prunable: false, technical: true }],
    ['not an object', 'v1', 'text', { kind: 'unknown', known: false }],
  ] as const)('classifies %s', (_name, storage, part, expected) => {
    expect(classifyPart(part, storage)).toMatchObject(expected)
  })

  it('marks synthetic text', () => {
    expect(classifyPart({ type: 'text', text: 'x', synthetic: true }, 'v1').synthetic).toBe(true)
  })
})

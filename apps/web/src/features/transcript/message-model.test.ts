import type { V2NativeMessage } from '@loupe/domain'
import { describe, expect, it } from 'vitest'
import { PNG, v1Assistant, v1User, v2Assistant, v2User } from './fixtures.test-data'
import { toMessageModel } from './to-message-model'

describe('toMessageModel', () => {
  it('maps a 1.x user message to markdown text and an image', () => {
    const model = toMessageModel(v1User)
    expect(model.role).toBe('user')
    expect(model.items.map((i) => i.kind)).toEqual(['text', 'image'])
    expect(model.items[1]).toMatchObject({ kind: 'image', ref: 'prt_u2', image: { src: PNG, mime: 'image/png', name: 'screenshot-1.png' } })
  })

  it('maps 1.x assistant parts by type, hides step-start and flags unknown types', () => {
    const model = toMessageModel(v1Assistant)
    expect(model.items.map((i) => i.kind)).toEqual(['reasoning', 'tool', 'tool', 'unknown', 'usage'])
    const tool = model.items[1]
    expect(tool?.kind === 'tool' && tool.tool).toMatchObject({ name: 'read', status: 'completed', inputSummary: '/repo/docs/architecture.png', output: 'Image read successfully', durationMs: 148 })
    expect(tool?.kind === 'tool' && tool.tool.images).toHaveLength(1)
    const failed = model.items[2]
    expect(failed?.kind === 'tool' && failed.tool).toMatchObject({ status: 'error', error: 'File not found: /repo/src/config.js', output: null })
    expect(model.items[3]).toMatchObject({ kind: 'unknown', type: 'hologram', ref: 'prt_0005' })
    expect(model.items[4]).toMatchObject({ kind: 'usage', usage: { cost: 0.0015113, reason: 'tool-calls', tokens: { input: 1283, output: 28, cacheRead: 1283 } } })
    expect(model).toMatchObject({ agent: 'build', model: 'scripted', createdAt: 1_795_982_569_802 })
  })

  it('maps 2.x content items by index, tool results from state.content, and a usage footer', () => {
    const model = toMessageModel(v2Assistant)
    expect(model.items.map((i) => [i.kind, i.ref])).toEqual([['reasoning', '0'], ['tool', '1'], ['tool', '2'], ['text', '3'], ['unknown', '4'], ['usage', 'usage']])
    const read = model.items[1]
    expect(read?.kind === 'tool' && read.tool).toMatchObject({ name: 'read', output: 'Image read successfully', durationMs: 82 })
    expect(read?.kind === 'tool' && read.tool.images[0]?.name).toBe('/repo/docs/architecture.png')
    const task = model.items[2]
    expect(task?.kind === 'tool' && task.tool.error).toBe('Unknown tool: task')
  })

  it('reads 2.x user files given as data URLs or as raw base64', () => {
    const model = toMessageModel(v2User)
    expect(model.items.map((i) => [i.kind, i.ref])).toEqual([['text', 'text'], ['image', 'files.0'], ['image', 'files.1']])
    const raw = model.items[2]
    expect(raw?.kind === 'image' && raw.image.src).toBe('data:image/png;base64,iVBORw0KGgo=')
  })

  it.each([
    ['compaction', { status: 'completed', reason: 'auto', summary: 'Goal: slugify' }, 'divider'],
    ['model-switched', { model: { id: 'gpt-x' } }, 'divider'],
    ['agent-switched', { agent: 'plan' }, 'divider'],
    ['system', { text: 'The available tools have changed.' }, 'note'],
    ['synthetic', { text: 'context', description: 'File contents' }, 'note'],
    ['shell', { command: 'ls', status: 'completed', output: 'a\nb' }, 'tool'],
    ['teleport', { x: 1 }, 'unknown'],
  ])('renders a 2.x %s message as %s', (type, data, kind) => {
    const message: V2NativeMessage = { storage: 'v2', id: 'msg_x' as V2NativeMessage['id'], seq: 1, message: { id: 'msg_x', type, ...data } }
    expect(toMessageModel(message).items[0]?.kind).toBe(kind)
  })

  it('never throws on malformed JSON shapes', () => {
    const broken = [
      { ...v1Assistant, info: { role: 42, time: 'soon' }, parts: [null, 7, 'text', { type: 'tool', state: 'nope' }, { type: 'file', url: 'javascript:alert(1)', mime: 'image/png' }] },
      { ...v2Assistant, message: { type: 'assistant', content: 'not an array', tokens: null } },
      { ...v2User, message: { type: 'user', files: [{ uri: 'file:///etc/passwd', mime: 'image/png' }] } },
    ]
    for (const message of broken) expect(() => toMessageModel(message as never)).not.toThrow()
    const files = toMessageModel(broken[0] as never).items.filter((i) => i.kind === 'image')
    expect(files).toHaveLength(0)
  })

  it('marks an omitted message and a 1.x compaction request as a divider event', () => {
    expect(toMessageModel({ ...v1Assistant, parts: [], omitted: { reason: 'limit', bytes: 20_000_000 } }).omittedBytes).toBe(20_000_000)
    const compaction = toMessageModel({ ...v1User, parts: [{ type: 'compaction', auto: true, id: 'prt_c' }] })
    expect(compaction.role).toBe('event')
    expect(compaction.items[0]).toMatchObject({ kind: 'divider', label: 'Context compacted automatically' })
  })
})

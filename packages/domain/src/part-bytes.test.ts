import { describe, expect, it } from 'vitest'
import { partBytes, toolStatusWord } from './part-bytes.js'
import { previewPrune } from './prune-plan.js'
import type { V1NativeMessage } from './native.js'

const write = {
  id: 'prt_b', sessionID: 'ses_a', messageID: 'msg_a', type: 'tool', tool: 'write', callID: 'call_1',
  state: { status: 'completed', input: { filePath: '/r/a.md', content: 'héllo\n'.repeat(200) }, output: 'Wrote file successfully.', title: 'a.md', metadata: {}, time: { start: 1, end: 2 } },
}

describe('partBytes', () => {
  it('counts UTF-8 bytes of the whole part as JSON, not only its output', () => {
    expect(partBytes(write)).toBe(new TextEncoder().encode(JSON.stringify(write)).length)
    expect(partBytes(write)).toBeGreaterThan(1400)
  })

  it('is the figure the prune review gives the same part', () => {
    const message: V1NativeMessage = {
      storage: 'v1', id: 'msg_a' as V1NativeMessage['id'],
      info: { role: 'assistant', time: { created: 1, completed: 3 } },
      parts: [{ id: 'prt_a', type: 'step-start' }, write],
    }
    const preview = previewPrune(message)
    expect(preview.ok && preview.value.parts[0]?.bytes).toBe(partBytes(write))
  })

  it('reads a value that cannot be serialized as 0 instead of throwing', () => {
    const loop: Record<string, unknown> = {}
    loop.self = loop
    expect(partBytes(loop)).toBe(0)
  })
})

describe('toolStatusWord', () => {
  it('gives one word per status and passes an unknown status through', () => {
    expect(toolStatusWord('completed')).toBe('done')
    expect(toolStatusWord('error')).toBe('failed')
    expect(toolStatusWord('paused')).toBe('paused')
    expect(toolStatusWord(undefined)).toBe('unknown')
  })
})

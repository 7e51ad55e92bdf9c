import type { V1NativeMessage, V2NativeMessage } from '@loupe/domain'

/** Shapes copied from rows the real OpenCode 1.18.33 wrote (trimmed), for presentational tests. */
export const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const ids = (n: number) => ({ id: `prt_${String(n).padStart(4, '0')}`, sessionID: 'ses_a', messageID: 'msg_2' })

export const v1User: V1NativeMessage = {
  storage: 'v1',
  id: 'msg_1' as V1NativeMessage['id'],
  info: { role: 'user', time: { created: 1_795_982_567_120 }, agent: 'build', model: { providerID: 'mock', modelID: 'scripted' } },
  parts: [
    { type: 'text', text: 'Does it match **the diagram**? <img src=x onerror=alert(1)>', id: 'prt_u1' },
    { type: 'file', mime: 'image/png', filename: 'screenshot-1.png', url: PNG, id: 'prt_u2' },
  ],
}

export const v1Assistant: V1NativeMessage = {
  storage: 'v1',
  id: 'msg_2' as V1NativeMessage['id'],
  info: {
    role: 'assistant', parentID: 'msg_1', agent: 'build', mode: 'build', modelID: 'scripted', providerID: 'mock', cost: 0.0015113,
    tokens: { total: 2616, input: 1283, output: 28, reasoning: 22, cache: { write: 0, read: 1283 } },
    time: { created: 1_795_982_569_802, completed: 1_795_982_573_235 }, finish: 'tool-calls',
  },
  parts: [
    { type: 'step-start', snapshot: '2c2461d4', ...ids(1) },
    { type: 'reasoning', text: 'I need to look at the diagram image.', time: { start: 10, end: 18 }, ...ids(2) },
    {
      type: 'tool', tool: 'read', callID: 'call_1', ...ids(3),
      state: {
        status: 'completed', input: { filePath: '/repo/docs/architecture.png' }, output: 'Image read successfully', title: 'docs/architecture.png',
        metadata: { preview: 'Image read successfully', truncated: false }, time: { start: 100, end: 248 },
        attachments: [{ type: 'file', mime: 'image/png', url: PNG, id: 'prt_att', sessionID: 'ses_a', messageID: 'msg_2' }],
      },
    },
    { type: 'tool', tool: 'read', callID: 'call_2', ...ids(4), state: { status: 'error', input: { filePath: '/repo/src/config.js' }, error: 'File not found: /repo/src/config.js', time: { start: 1, end: 2 } } },
    { type: 'hologram', payload: { beams: 3 }, ...ids(5) },
    { type: 'step-finish', reason: 'tool-calls', cost: 0.0015113, tokens: { total: 2616, input: 1283, output: 28, reasoning: 22, cache: { write: 0, read: 1283 } }, ...ids(6) },
  ],
}

export const v2Assistant: V2NativeMessage = {
  storage: 'v2',
  id: 'msg_3' as V2NativeMessage['id'],
  seq: 3,
  message: {
    id: 'msg_3', type: 'assistant', agent: 'build', model: { id: 'scripted', providerID: 'mock' },
    time: { created: 1_795_982_581_076, completed: 1_795_982_581_632 }, finish: 'tool-calls', cost: 0,
    tokens: { input: 214, output: 27, reasoning: 22, cache: { read: 213, write: 0 } },
    content: [
      { type: 'reasoning', id: 'reasoning-0', text: 'Compare the image.', time: { created: 1, completed: 12 } },
      {
        type: 'tool', id: 'call_4', name: 'read',
        state: { status: 'completed', input: { path: '/repo/docs/architecture.png' }, content: [{ type: 'text', text: 'Image read successfully' }, { type: 'file', uri: PNG, mime: 'image/png', name: '/repo/docs/architecture.png' }] },
        time: { created: 1, ran: 2, completed: 84 },
      },
      { type: 'tool', id: 'call_5', name: 'task', state: { status: 'error', input: { description: 'Find word counting code' }, content: [], error: { type: 'unknown', message: 'Unknown tool: task' } } },
      { type: 'text', id: 'text-0', text: 'It matches.' },
      { type: 'citation', url: 'https://example.com' },
    ],
  },
}

export const v2User: V2NativeMessage = {
  storage: 'v2',
  id: 'msg_4' as V2NativeMessage['id'],
  seq: 2,
  message: { id: 'msg_4', type: 'user', text: 'Here is a screenshot', files: [{ uri: PNG, mime: 'image/png', name: 'screenshot-1.png' }, { data: 'iVBORw0KGgo=', mime: 'image/png', name: 'raw.png' }], time: { created: 5 } },
}

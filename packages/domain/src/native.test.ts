import { describe, expect, it } from 'vitest'
import type { NativeMessage } from './native.js'
import { messageCompletedAt, messageCreatedAt, messageInfo, messageOwnText } from './native.js'

const v1 = { storage: 'v1', id: 'msg_1', info: { role: 'assistant', time: { created: 10, completed: 20 } }, parts: [] } as unknown as NativeMessage
const v2 = { storage: 'v2', id: 'msg_2', message: { type: 'user', text: 'hello', time: { created: 30 } } } as unknown as NativeMessage

describe('message fields of both generations', () => {
  it('reads info, times and a 2.x row’s own text the same way for 1.x and 2.x', () => {
    expect(messageInfo(v1)).toMatchObject({ role: 'assistant' })
    expect(messageInfo(v2)).toMatchObject({ type: 'user' })
    expect([messageCreatedAt(v1), messageCreatedAt(v2)]).toEqual([10, 30])
    expect([messageCompletedAt(v1), messageCompletedAt(v2)]).toEqual([20, undefined])
    expect([messageOwnText(v1), messageOwnText(v2)]).toEqual(['', 'hello'])
  })
})

import { describe, expect, it } from 'vitest'
import { displayName, extractGalleryItems, imageUrisInParts } from './gallery-items.js'
import type { MessageID } from './ids.js'
import type { NativeMessage } from './native.js'

// Shapes as OpenCode 1.18.33 stores them (the real fixture's image+subagent session), bodies shortened.
const PNG = 'data:image/png;base64,iVBORw0KGgo='

const v1 = (role: string, parts: Record<string, unknown>[]): NativeMessage => ({
  storage: 'v1',
  id: 'msg_1' as MessageID,
  info: { role, id: 'msg_1', sessionID: 'ses_1' },
  parts: parts.map((p, i) => ({ id: `prt_${i}`, sessionID: 'ses_1', messageID: 'msg_1', ...p })),
})
const v2 = (message: Record<string, unknown>): NativeMessage => ({ storage: 'v2', id: 'msg_1' as MessageID, seq: 3, message: { id: 'msg_1', ...message } })

describe('extractGalleryItems (1.x)', () => {
  it('takes the image attachments of a read part, in file order, with the read interval', () => {
    const items = extractGalleryItems(
      v1('assistant', [
        { type: 'step-start' },
        {
          type: 'tool',
          tool: 'read',
          callID: 'call_1',
          state: {
            status: 'completed',
            input: { filePath: '/p/docs/architecture.png' },
            output: 'Image read successfully',
            time: { start: 10, end: 20 },
            attachments: [
              { type: 'file', mime: 'image/png', url: PNG, id: 'prt_a' },
              { type: 'file', mime: 'application/pdf', url: 'data:application/pdf;base64,AAAA', id: 'prt_b' },
              { type: 'file', mime: 'image/webp', url: 'data:image/webp;base64,AAAA', id: 'prt_c' },
            ],
          },
        },
      ]),
    )
    expect(items).toEqual([
      {
        kind: 'read',
        part: 1,
        status: 'completed',
        filePath: '/p/docs/architecture.png',
        ran: 10,
        end: 20,
        files: [
          { index: 0, mime: 'image/png', uri: PNG, name: undefined },
          { index: 2, mime: 'image/webp', uri: 'data:image/webp;base64,AAAA', name: undefined },
        ],
      },
    ])
  })

  it('takes a pasted image file part of a user message, not of an assistant message', () => {
    const part = { type: 'file', mime: 'image/png', filename: 'screenshot-1.png', url: PNG }
    expect(extractGalleryItems(v1('user', [{ type: 'text', text: 'look' }, part]))).toEqual([
      { kind: 'pasted', part: 1, files: [{ index: 0, mime: 'image/png', uri: PNG, name: 'screenshot-1.png' }] },
    ])
    expect(extractGalleryItems(v1('assistant', [part]))).toEqual([])
  })

  it('ignores reads of text files and other tools', () => {
    const items = extractGalleryItems(
      v1('assistant', [
        { type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: '/p/a.js' }, output: 'x' } },
        { type: 'tool', tool: 'bash', state: { status: 'completed', attachments: [{ type: 'file', mime: 'image/png', url: PNG }] } },
      ]),
    )
    expect(items).toEqual([])
  })

  it('reads an experimental_image_generate part from the design field list', () => {
    const items = extractGalleryItems(
      v1('assistant', [
        {
          type: 'tool',
          tool: 'experimental_image_generate',
          state: {
            status: 'completed',
            input: { prompt: 'a hero image', images: ['in/sketch.png', 42] },
            metadata: { path: 'out/hero', jobID: 'job-1', model: { providerID: 'acme', id: 'img-2' } },
            time: { start: 5, end: 9 },
          },
        },
      ]),
    )
    expect(items).toEqual([
      { kind: 'generate', part: 0, partID: 'prt_0', status: 'completed', jobID: 'job-1', path: 'out/hero', prompt: 'a hero image', model: 'acme/img-2', images: ['in/sketch.png'], ran: 5, completed: 9 },
    ])
  })
})

describe('extractGalleryItems (2.x)', () => {
  it('takes the file items of a read tool content, not its structured copy', () => {
    const items = extractGalleryItems(
      v2({
        type: 'assistant',
        content: [
          { type: 'reasoning', text: 'look' },
          {
            type: 'tool',
            id: 'call_4d5e',
            name: 'read',
            state: {
              status: 'completed',
              input: { path: '/p/docs/architecture.png' },
              content: [{ type: 'text', text: 'Image read successfully' }, { type: 'file', uri: PNG, mime: 'image/png', name: '/p/docs/architecture.png' }],
              structured: { uri: 'file:///p/docs/architecture.png', content: 'iVBORw0KGgo=', encoding: 'base64', mime: 'image/png' },
            },
            time: { created: 1, ran: 2, completed: 3 },
          },
        ],
      }),
    )
    expect(items).toEqual([
      { kind: 'read', part: 1, status: 'completed', filePath: '/p/docs/architecture.png', ran: 2, end: 3, files: [{ index: 1, mime: 'image/png', uri: PNG, name: '/p/docs/architecture.png' }] },
    ])
  })

  it('takes user files in both stored forms (1.18 `uri`, 2.0.x `data`)', () => {
    const items = extractGalleryItems(
      v2({
        type: 'user',
        text: 'look',
        files: [
          { uri: PNG, mime: 'image/png', name: 'screenshot-1.png' },
          { data: 'iVBORw0KGgo=', mime: 'image/png', source: { type: 'inline' }, name: 'b.png' },
          { data: 'AAAA', mime: 'text/plain', source: { type: 'inline' } },
        ],
      }),
    )
    expect(items).toEqual([
      {
        kind: 'pasted',
        part: 0,
        files: [
          { index: 0, mime: 'image/png', uri: PNG, name: 'screenshot-1.png' },
          { index: 1, mime: 'image/png', uri: 'data:image/png;base64,iVBORw0KGgo=', name: 'b.png' },
        ],
      },
    ])
  })

  it('reads a generate call with its tool item times', () => {
    const [item] = extractGalleryItems(
      v2({
        type: 'assistant',
        content: [{ type: 'tool', id: 'call_9', name: 'experimental_image_generate', state: { status: 'running', input: { prompt: 'p' } }, time: { created: 1 } }],
      }),
    )
    expect(item).toMatchObject({ kind: 'generate', partID: 'call_9', status: 'running', jobID: undefined, ran: undefined, completed: undefined })
  })

  it('yields nothing for an omitted (oversized) message', () => {
    expect(extractGalleryItems({ ...v2({ type: 'user', files: [{ uri: PNG, mime: 'image/png' }] }), omitted: { reason: 'limit', bytes: 1 } })).toEqual([])
  })
})

describe('displayName', () => {
  it.each([
    ['/p/docs/architecture.png', 'architecture.png'],
    ['screenshot-1.png', 'screenshot-1.png'],
    ['C:\\Users\\me\\shot.png', 'shot.png'],
    ['', null],
    [undefined, null],
  ])('%s → %s', (input, expected) => expect(displayName(input)).toBe(expected))
})

describe('imageUrisInParts', () => {
  const readPart = (url: string) => ({ type: 'tool', tool: 'read', callID: 'c', state: { status: 'completed', input: {}, output: '', attachments: [{ type: 'file', mime: 'image/png', url }] } })
  const message = v1('assistant', [{ type: 'step-start' }, readPart(PNG), readPart('data:image/png;base64,AAAA'), { type: 'text', text: 'x' }])

  it('gives the image URIs of exactly the named parts', () => {
    expect(imageUrisInParts(message, [2])).toEqual(['data:image/png;base64,AAAA'])
    expect(imageUrisInParts(message, [1, 2])).toEqual([PNG, 'data:image/png;base64,AAAA'])
  })

  it('gives nothing for parts without images', () => {
    expect(imageUrisInParts(message, [0, 3])).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { noticeTextFile, readNotice } from './gallery-notice.js'

const meta = (over: Record<string, unknown> = {}) => ({ source: 'experimental_image_generate', jobID: 'job-1', state: 'completed', path: 'out/hero.png', ...over })

describe('readNotice', () => {
  it('reads a notice with metadata and the "Saved image:" text, resolving the file against the session directory', () => {
    expect(readNotice({ time: 5, metadata: meta(), text: 'Saved image: out/hero.png (1024x1024)' }, '/p')).toEqual({
      kind: 'notice',
      notice: { time: 5, jobID: 'job-1', state: 'completed', file: '/p/out/hero.png' },
    })
  })

  it('takes the file from the text when metadata has no path', () => {
    expect(readNotice({ time: 5, metadata: meta({ path: undefined }), text: 'Saved image: /p/a.png (x)' }, '/p')).toMatchObject({ notice: { file: '/p/a.png' } })
  })

  it('keeps an error notice without a file', () => {
    expect(readNotice({ time: 5, metadata: meta({ state: 'error', path: undefined }), text: 'Image generation failed' }, '/p')).toMatchObject({
      notice: { state: 'error', file: undefined },
    })
  })

  it.each([
    ['an unknown state', meta({ state: 'done' })],
    ['no jobID', meta({ jobID: undefined })],
    ['a non-string path', meta({ path: 42 })],
  ])('is undecodable with %s', (_name, metadata) => {
    expect(readNotice({ time: 5, metadata, text: 'Saved image: out/hero.png (x)' }, '/p')).toEqual({ kind: 'undecodable' })
  })

  it('is undecodable when metadata and text name different files', () => {
    expect(readNotice({ time: 5, metadata: meta(), text: 'Saved image: out/other.png (x)' }, '/p')).toEqual({ kind: 'undecodable' })
  })

  it('is undecodable when the text announces a saved image without the contract metadata', () => {
    expect(readNotice({ time: 5, metadata: null, text: 'Saved image: out/hero.png (x)' }, '/p')).toEqual({ kind: 'undecodable' })
  })

  it('ignores any other synthetic row', () => {
    expect(readNotice({ time: 5, metadata: null, text: 'Called the Read tool with the following input' }, '/p')).toEqual({ kind: 'other' })
  })
})

describe('noticeTextFile', () => {
  it.each([
    ['Saved image: a.png (512x512)', 'a.png'],
    ['Saved image: dir with space/a.png (x)', 'dir with space/a.png'],
    ['Saved image: a.png', undefined],
    ['saved image: a.png (x)', undefined],
    [null, undefined],
  ])('%s → %s', (text, file) => expect(noticeTextFile(text)).toBe(file))
})

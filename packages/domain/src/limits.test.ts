import { describe, expect, it } from 'vitest'
import { mibText, overEditLimit } from './limits.js'

describe('sizes in refusals', () => {
  it('reads a message just over the limit as over it, not as equal to it', () => {
    expect(overEditLimit(16_825_284)).toBe('This message is 16.05 MiB, over the 16 MiB Loupe edits.')
    expect(mibText(17 * 1024 * 1024)).toBe('17.00 MiB')
    expect(overEditLimit(16 * 1024 * 1024 + 1)).toBe('This message is 16.01 MiB, over the 16 MiB Loupe edits.')
  })
})

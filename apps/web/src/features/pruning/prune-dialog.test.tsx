import { fireEvent, render, screen } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { ForkNotice } from './prune-dialog'
import type { ForkReview } from './pruning.data'

const fork = (title: string | null, messages: number): ForkReview => ({
  sessionID: `ses_${title ?? 'untitled'}`,
  title,
  bytes: 2048 * messages,
  messages: Array.from({ length: messages }, (_, i) => ({ messageID: `msg_${i}`, revision: 'r', indexes: 'all', storageOnly: false, parts: [] })),
})

describe('ForkNotice', () => {
  it('says nothing when no fork keeps a copy', () => {
    const { container } = render(() => <ForkNotice forks={[]} include={false} onInclude={() => {}} />)
    expect(container.textContent).toBe('')
  })

  it('names the forks and their copies, left alone until the person ticks the box', () => {
    const ticks: boolean[] = []
    render(() => <ForkNotice forks={[fork('Plan (fork #1)', 2), fork(null, 1)]} include={false} onInclude={(on) => ticks.push(on)} />)
    const note = screen.getByRole('note')
    expect(note.textContent).toContain('2 forks (Plan (fork #1), ses_untitled) keep copies of 3 messages; removing them here leaves those copies.')
    const box = screen.getByRole('checkbox') as HTMLInputElement
    expect(box.checked).toBe(false)
    fireEvent.change(box, { target: { checked: true } })
    expect(ticks).toEqual([true])
  })
})

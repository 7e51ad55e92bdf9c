import { fireEvent, render, screen } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { CompactionNotice, ForkNotice } from './prune-dialog'
import type { ForkReview, Review, ReviewMessage } from './pruning.data'

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

const message = (storageOnly: boolean, compactionCopies?: number): ReviewMessage => ({ messageID: 'msg_1', revision: 'r', indexes: 'all', storageOnly, parts: [], ...(compactionCopies === undefined ? {} : { compactionCopies }) })

describe('CompactionNotice', () => {
  it('counts the compaction summaries a preview found quoting the outputs, and says Loupe leaves them', () => {
    const review: Review = { scope: 'message', messages: [message(true, 2)], refused: [] }
    render(() => <CompactionNotice review={review} />)
    expect(screen.getByRole('note').textContent).toContain('2 compaction summaries still quote some of these outputs')
    expect(screen.getByRole('note').textContent).toContain('Loupe does not change compaction summaries')
  })

  it('warns for a whole session with messages before a compaction, and says nothing when none is involved', () => {
    const session: Review = { scope: 'session', messages: [message(false), message(true)], refused: [] }
    const { unmount } = render(() => <CompactionNotice review={session} />)
    expect(screen.getByRole('note').textContent).toContain('Compaction summaries of this session may still quote')
    unmount()
    const plain: Review = { scope: 'message', messages: [message(true, 0)], refused: [] }
    const { container } = render(() => <CompactionNotice review={plain} />)
    expect(container.textContent).toBe('')
  })
})

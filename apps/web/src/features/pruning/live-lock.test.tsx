import { render, screen } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { LockedSessions } from '../search/cleanup-dialog'
import { LiveLockNotice, lockHeadline, type LiveLock } from './live-lock'

const lock = (over: Partial<LiveLock>): LiveLock => ({ reason: 'recently_active', cause: 'no_answer', detail: 'Some detail.', fix: 'Some fix.', ...over })

describe('lockHeadline', () => {
  it.each([
    [lock({ reason: 'running', cause: 'reported' }), 'OpenCode is running this session right now'],
    [lock({ reason: 'recently_active', cause: 'unauthorized' }), "OpenCode's server refused Loupe's credentials"],
    [lock({ reason: 'unfinished_message', cause: 'unauthorized' }), "OpenCode's server refused Loupe's credentials"],
    [lock({ reason: 'recently_active', cause: 'no_answer' }), 'Recently active while OpenCode holds the database'],
    [lock({ reason: 'unfinished_message', cause: 'bad_answer' }), 'OpenCode holds the database and has not finished this session'],
    [lock({ reason: 'recently_active', cause: 'held_by_loupe' }), 'Another Loupe has the database open'],
  ])('names why the session is locked when %o', (given, headline) => {
    expect(lockHeadline(given)).toBe(headline)
  })
})

describe('LiveLockNotice', () => {
  it('shows the reason, the detail and the fix when a session is locked', () => {
    render(() => <LiveLockNotice lock={lock({ reason: 'recently_active', cause: 'unauthorized', detail: 'OpenCode (process 42) has the database open.', fix: 'Set OPENCODE_SERVER_USERNAME.' })} />)
    const notice = screen.getByRole('status')
    expect(notice.textContent).toContain("Locked: OpenCode's server refused Loupe's credentials.")
    expect(notice.textContent).toContain('process 42')
    expect(notice.querySelector('.live-lock-fix')?.textContent).toBe('Set OPENCODE_SERVER_USERNAME.')
  })
})

describe('LockedSessions (search clean-up)', () => {
  it('lists the sessions a clean-up leaves out because OpenCode may be running them, with the fix', () => {
    const locked = [{ sessionID: 'ses_a', storage: 'v1' as const, title: 'Busy one', directory: '/p', messages: 3, lock: lock({ reason: 'running', cause: 'reported', fix: 'Wait until OpenCode is idle.' }) }]
    render(() => <LockedSessions candidates={{ locked }} />)
    const notice = screen.getByRole('status')
    expect(notice.textContent).toContain('1 session left out')
    expect(notice.textContent).toContain('Busy one (3 messages)')
    expect(notice.textContent).toContain('OpenCode is running this session right now')
    expect(notice.textContent).toContain('Wait until OpenCode is idle.')
  })

  it('renders nothing when no session is locked', () => {
    const { container } = render(() => <LockedSessions candidates={{ locked: [] }} />)
    expect(container.textContent).toBe('')
  })
})

import { render, screen } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { ReadOnlyBanner } from './read-only-banner'

const MIGRATION = '20261008161446_tanstack_stores'

describe('ReadOnlyBanner', () => {
  it('names the migration that made the file read-only, and keeps the other reasons', () => {
    render(() => (
      <ReadOnlyBanner
        supported={{ read: true, write: false, reasons: [`unknown OpenCode migration(s): ${MIGRATION}`, 'the database has trigger(s) audit'] }}
        migrations={{ unknown: [MIGRATION] }}
      />
    ))
    const note = screen.getByRole('note')
    expect(note.textContent).toContain(`Opened read-only: this file has migration ${MIGRATION}, newer than Loupe knows.`)
    expect([...note.querySelectorAll('code')].map((c) => c.textContent)).toEqual([MIGRATION])
    expect(note.textContent).toContain('Also: the database has trigger(s) audit.')
    expect(note.textContent).not.toContain('unknown OpenCode migration(s)')
  })

  it('counts several migrations and says the plain reason when none is unknown', () => {
    const { unmount } = render(() => (
      <ReadOnlyBanner supported={{ read: true, write: false, reasons: ['unknown OpenCode migration(s): a_1, b_2'] }} migrations={{ unknown: ['a_1', 'b_2'] }} />
    ))
    expect(screen.getByRole('note').textContent).toContain('this file has 2 migrations a_1, b_2, newer than Loupe knows')
    unmount()
    render(() => <ReadOnlyBanner supported={{ read: true, write: false, reasons: ['the file is not writable by Loupe'] }} migrations={{ unknown: [] }} />)
    expect(screen.getByRole('note').textContent).toBe('Read-only. the file is not writable by Loupe')
  })

  it('shows nothing for a file Loupe may write', () => {
    render(() => <ReadOnlyBanner supported={{ read: true, write: true, reasons: [] }} migrations={{ unknown: [] }} />)
    expect(screen.queryByRole('note')).toBeNull()
  })
})

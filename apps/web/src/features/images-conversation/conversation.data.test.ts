import { describe, expect, it } from 'vitest'
import { agentFor, continueCommand, describeAnswer, describeGitExclusion, shellQuote, type CompanionSession } from './conversation.data'

const session: CompanionSession = {
  id: 'ses_abc', marked: true, storage: 'v1', title: 'Images', directory: '/home/me/tally', projectID: 'p', agent: null, timeCreated: 1, timeUpdated: 1,
}

describe('describeAnswer', () => {
  it('shows a created session with its git outcome', () => {
    const view = describeAnswer({ status: 'created', session, command: 'opencode -s ses_abc', gitExclusion: { status: 'added', rule: '.codenomad/design/', file: '/home/me/tally/.git/info/exclude' } })
    expect(view).toMatchObject({ tone: 'ok', title: 'Created the Images conversation', session, git: { tone: 'ok', text: expect.stringContaining('.git/info/exclude') } })
  })

  it('says what to do when OpenCode is unavailable', () => {
    const view = describeAnswer({ status: 'blocked', blocked: 'unavailable', reason: 'No OpenCode server is configured.', hint: 'Start `opencode serve`.' })
    expect(view).toMatchObject({ tone: 'error', detail: 'No OpenCode server is configured.', hint: 'Start `opencode serve`.', session: null })
    expect(view.title).toContain('nothing was created')
  })

  it('says nothing was created when the lookup could not finish', () => {
    expect(describeAnswer({ status: 'unknown', reason: 'locked' })).toMatchObject({ tone: 'warn', detail: 'locked' })
  })
})

describe('describeGitExclusion', () => {
  it.each([
    [{ status: 'present', rule: '.codenomad/design/', file: 'f' } as const, 'ok', 'already ignores'],
    [{ status: 'not-repository' } as const, 'ok', 'Not a git repository'],
    [{ status: 'unavailable', reason: 'git is not installed (not found on PATH).' } as const, 'warn', 'git is not installed'],
  ])('%j', (git, tone, text) => {
    expect(describeGitExclusion(git)).toEqual({ tone, text: expect.stringContaining(text) })
  })
})

describe('continueCommand', () => {
  it.each([
    ['/home/me/tally', "cd /home/me/tally && opencode -s ses_abc"],
    ['/home/me/my project', "cd '/home/me/my project' && opencode -s ses_abc"],
    ["/home/me/it's", "cd '/home/me/it'\\''s' && opencode -s ses_abc"],
    ['/tmp/$(rm -rf ~)', "cd '/tmp/$(rm -rf ~)' && opencode -s ses_abc"],
  ])('%s', (directory, full) => {
    expect(continueCommand({ id: 'ses_abc', directory })).toEqual({ short: 'opencode -s ses_abc', full })
  })

  it('quotes anything a shell would expand', () => {
    for (const text of ['a b', '*', '~', '$HOME', '`x`', 'a;b', 'a\nb', '!x', '']) expect(shellQuote(text)).toMatch(/^'.*'$/s)
  })
})

describe('agentFor', () => {
  const catalog = (names: string[]) => ({ status: 'ok' as const, catalog: { agents: names.map((name) => ({ name, description: null })), models: [] } })
  it('sends design only when OpenCode offers it there', () => {
    expect(agentFor(catalog(['build', 'design']))).toBe('design')
    expect(agentFor(catalog(['build', 'plan']))).toBeUndefined()
    expect(agentFor({ status: 'blocked', blocked: 'unavailable', reason: 'r', hint: 'h' })).toBeUndefined()
    expect(agentFor(undefined)).toBeUndefined()
  })
})

import type { RouterOutputs } from '../../lib/trpc'

export type ImagesAnswer = RouterOutputs['conversation']['images']
export type FindAnswer = RouterOutputs['conversation']['find']
export type CatalogAnswer = RouterOutputs['conversation']['catalog']
export type GitExclusion = Extract<ImagesAnswer, { gitExclusion: unknown }>['gitExclusion']
export type CompanionSession = Extract<ImagesAnswer, { session: unknown }>['session']

export type Tone = 'ok' | 'warn' | 'error'

/** What the panel shows for one answer: a headline, what went wrong and what to do, the session and how to continue it. */
export interface AnswerView {
  tone: Tone
  title: string
  detail: string | null
  hint: string | null
  session: CompanionSession | null
  git: { tone: Tone; text: string } | null
}

/** The title the Images conversation gets when Loupe creates it. */
export const IMAGES_TITLE = 'Images'
/** The agent the design names for image work; sent only when OpenCode offers it at that location. */
export const DESIGN_AGENT = 'design'

export function describeGitExclusion(git: GitExclusion): { tone: Tone; text: string } {
  switch (git.status) {
    case 'added':
      return { tone: 'ok', text: `Git now ignores ${git.rule} (added to ${git.file}).` }
    case 'present':
      return { tone: 'ok', text: `Git already ignores ${git.rule}.` }
    case 'not-repository':
      return { tone: 'ok', text: 'Not a git repository: nothing to exclude.' }
    case 'unavailable':
      return { tone: 'warn', text: `.codenomad/design/ is not excluded in git: ${git.reason}` }
  }
}

export function describeAnswer(answer: ImagesAnswer): AnswerView {
  switch (answer.status) {
    case 'found':
    case 'created':
      return {
        tone: 'ok',
        title: answer.status === 'created' ? 'Created the Images conversation' : 'Opened the Images conversation',
        detail: null,
        hint: null,
        session: answer.session,
        git: describeGitExclusion(answer.gitExclusion),
      }
    case 'blocked':
      return { tone: 'error', title: 'OpenCode is unavailable — nothing was created', detail: answer.reason, hint: answer.hint, session: null, git: null }
    case 'unknown':
      return { tone: 'warn', title: 'Loupe could not tell whether one exists — nothing was created', detail: answer.reason, hint: 'Try again in a moment.', session: null, git: null }
  }
}

/** Quote a path for a POSIX shell: single quotes, with embedded ones closed and escaped. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}

/** The command that continues the conversation in a terminal (run in its directory), and one that goes there first. */
export function continueCommand(session: Pick<CompanionSession, 'id' | 'directory'>): { short: string; full: string } {
  return { short: `opencode -s ${session.id}`, full: `cd ${shellQuote(session.directory)} && opencode -s ${session.id}` }
}

/** The agent to send when creating: `design` only when OpenCode's catalog for that location lists it. */
export function agentFor(catalog: CatalogAnswer | undefined): string | undefined {
  if (catalog?.status !== 'ok') return undefined
  return catalog.catalog.agents.some((a) => a.name === DESIGN_AGENT) ? DESIGN_AGENT : undefined
}

import { TRPCClientError } from '@trpc/client'

export type ProblemKind = 'unauthorized' | 'not_found' | 'unsupported' | 'busy' | 'bad_request' | 'offline' | 'server'

/** What went wrong, in words a person can act on. */
export interface Problem {
  kind: ProblemKind
  title: string
  detail: string
  /** What to do about it. */
  hint: string
}

function statusOf(error: unknown): number | undefined {
  if (!(error instanceof TRPCClientError)) return undefined
  const data = error.data as { httpStatus?: number } | undefined
  if (typeof data?.httpStatus === 'number') return data.httpStatus
  const meta = error.meta as { response?: { status?: number } } | undefined
  return meta?.response?.status
}

/**
 * Map a failed API call to a Problem: the 401 from a missing token link gets its own screen, and so
 * does the 429 after 20 such failures (the printed link still works at once).
 */
export function describeProblem(error: unknown): Problem {
  const status = statusOf(error)
  const message = error instanceof Error ? error.message : String(error)
  if (status === 401 || status === 429) {
    return {
      kind: 'unauthorized',
      title: 'Loupe needs its access link',
      detail: 'This browser has not been given the token that keeps your history private.',
      hint: 'Open the full URL that `npm start` printed in the terminal (it ends with ?token=…). Your browser remembers it afterwards.',
    }
  }
  if (status === 404) return { kind: 'not_found', title: 'Not found', detail: message, hint: 'It may have been deleted in OpenCode. Go back to the session list.' }
  if (status === 412) return { kind: 'unsupported', title: 'Unsupported database', detail: message, hint: 'Loupe only reads OpenCode storage it recognizes. Check the Storage page.' }
  if (status === 503) return { kind: 'busy', title: 'Database busy', detail: message, hint: 'OpenCode may be writing right now. Try again in a moment.' }
  if (status === 400) return { kind: 'bad_request', title: 'Bad request', detail: message, hint: 'The link may be out of date. Reload the page.' }
  if (status === undefined && /fetch|network|Failed to/i.test(message)) {
    return { kind: 'offline', title: 'Cannot reach Loupe', detail: message, hint: 'Is the Loupe server still running? Start it again with `npm start`.' }
  }
  return { kind: 'server', title: 'Something went wrong', detail: message, hint: 'Reload the page. If it keeps happening, the server log in your terminal has details.' }
}

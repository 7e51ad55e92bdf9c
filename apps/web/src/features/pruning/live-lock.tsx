import type { RouterOutputs } from '../../lib/trpc'

/** Why OpenCode may be running a session, as the api's live guard says (checkLive). */
export type LiveLock = NonNullable<RouterOutputs['pruning']['sessionPlan']['lock']>

/** The one line a person reads first: running now, a refused login, or recent activity while OpenCode holds the file. */
export function lockHeadline(lock: Pick<LiveLock, 'reason' | 'cause'>): string {
  if (lock.reason === 'running') return 'OpenCode is running this session right now'
  if (lock.cause === 'unauthorized') return "OpenCode's server refused Loupe's credentials"
  if (lock.cause === 'held_by_loupe') return 'Another Loupe has the database open'
  return lock.reason === 'unfinished_message'
    ? 'OpenCode holds the database and has not finished this session'
    : 'Recently active while OpenCode holds the database'
}

/** Before anyone selects: this session is locked, why, and what to do. */
export function LiveLockNotice(props: { lock: LiveLock }) {
  return (
    <div class="banner banner-warn live-lock" role="status">
      <strong>Locked: {lockHeadline(props.lock)}.</strong> {props.lock.detail} <span class="live-lock-fix">{props.lock.fix}</span>
    </div>
  )
}

import type { AppDeps } from '../../deps.js'
import { LIVE_VERDICT_MS, checkLive, liveKey, type LiveSession } from '../../opencode/live-guard.js'

type LiveCheckDeps = Pick<AppDeps, 'opencode' | 'config' | 'opencodeClient' | 'clock'>

/** Where compaction asks whether OpenCode is working in a session (never inside a transaction). */
export interface LiveWindow {
  /**
   * A refusal for the `index`th session of the run, or undefined when the next `bytes` of its log
   * may be written now. `spend` them once written: a verdict covers at most `budget` bytes of writes
   * and at most LIVE_VERDICT_MS of time.
   */
  refusal(index: number, bytes?: number): Promise<string | undefined>
  spend(bytes: number): void
}

const GONE = 'This session is not in the database any more.'

/**
 * One checkLive for the sessions ahead whose logs fit in `budget` bytes, then one for the next
 * such group: a check looks at every process's open files (/proc), and a run of many small
 * sessions asked twice for each. A verdict is used only until `budget` bytes have been written
 * after it (the most one write batch holds) or LIVE_VERDICT_MS have passed (planning a long log
 * yields between pages), so a run re-checks at least as often as batch by batch; a session
 * OpenCode starts on mid-run stops the run at the next check. `owner` reads the `index`th session with the store that owns it (the
 * compaction's one rule for logs that several generations share).
 */
export function createLiveWindow(
  deps: LiveCheckDeps,
  sessions: ReadonlyArray<{ sessionID: string; bytes: number }>,
  budget: number,
  owner: (index: number) => LiveSession | undefined,
): LiveWindow {
  let verdicts = new Map<number, string | undefined>()
  let left = 0
  let askedAt = -Infinity
  const check = async (from: number) => {
    const started = performance.now()
    const group: number[] = []
    for (let i = from, bytes = 0; i < sessions.length && (group.length === 0 || bytes + sessions[i]!.bytes <= budget); i++) {
      group.push(i)
      bytes += sessions[i]!.bytes
    }
    const found = group.map(owner)
    const live = await checkLive(deps, found.filter((f) => f !== undefined))
    verdicts = new Map(group.map((i, k) => {
      const f = found[k]
      if (!f) return [i, GONE]
      const verdict = live.get(liveKey(f.session))
      return [i, verdict?.state === 'locked' ? `${verdict.lock.detail} ${verdict.lock.fix}` : verdict ? undefined : GONE]
    }))
    left = budget
    askedAt = started
  }
  return {
    async refusal(index, bytes = 0) {
      if (!verdicts.has(index) || left < bytes || performance.now() - askedAt > LIVE_VERDICT_MS) await check(index)
      return verdicts.get(index)
    },
    spend(bytes) {
      left -= bytes
    },
  }
}

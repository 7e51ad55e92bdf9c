import { summarizeUsage, type UsageSummary } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import type { SummarizeUsageInput } from './overview.schema.js'

/** The overview reads the opened OpenCode file and the clock (which day is today). */
export type OverviewDeps = Pick<AppDeps, 'opencode' | 'clock'>

const baseName = (path: string) => path.split(/[\\/]/).filter(Boolean).at(-1) ?? path

/**
 * Tokens and cost per day or week of the range, stacked by model or project, from every
 * generation's assistant messages; days begin at the client's UTC offset (one offset for the whole
 * range, so a day across a daylight-saving change is an hour off at its ends).
 */
export function summarizeFileUsage(deps: OverviewDeps, input: SummarizeUsageInput): UsageSummary {
  const { db, stores, layout } = deps.opencode
  if (!layout.readable) throw new AppError('unsupported_storage', `Loupe does not recognize this database: ${layout.problems.join('; ')}`)
  const { snapshot, projects } = db.read(() => ({ snapshot: stores.usage.read(db, input.tzOffsetMinutes), projects: stores.projects(db) }))
  const projectNames = new Map(projects.map((p) => [p.id, p.name || (p.worktree === '/' ? 'global' : baseName(p.worktree))]))
  return summarizeUsage(snapshot.cells, snapshot.sessions, { ...input, now: deps.clock.now(), projectNames })
}

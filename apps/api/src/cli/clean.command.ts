import { z } from 'zod'
import { describeCleanPlan } from '../features/storage/clean-plan.service.js'
import { startClean } from '../features/storage/clean-apply.service.js'
import { cleanRule } from '../features/storage/storage.schema.js'
import { createCliAppDeps } from './cli-app-deps.js'
import { CliUsageError, type CliOptions } from './cli-args.js'
import { createProgress, EXIT, formatBytes, type CliIo, type CommandResult } from './cli-io.js'
import { openForCli } from './open-db.js'

function ruleOf(options: CliOptions) {
  const parsed = cleanRule.safeParse({
    idleDays: options.idleDays === undefined ? undefined : Number(options.idleDays),
    ...(options.project ? { projectID: options.project } : {}),
    ...(options.minToolKb ? { minToolOutputKB: Number(options.minToolKb) } : {}),
  })
  if (!parsed.success) throw new CliUsageError(`clean needs --idle-days N (whole days), and takes --project ID and --min-tool-kb K: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`)
  return parsed.data
}

/**
 * `loupe clean`: a dry run of the retention rule unless given `--apply <fingerprint>` from that dry
 * run; then the same prune path as the Storage page (receipts, redacted events, refusals).
 */
export async function cleanCommand(options: CliOptions, io: CliIo): Promise<CommandResult> {
  const rule = ruleOf(options)
  if (options.applyFlag && !options.apply) throw new CliUsageError('clean --apply needs the fingerprint its dry run printed')
  const opencode = openForCli(options.db)
  const progress = createProgress(io)
  const deps = await createCliAppDeps(opencode, options.dataDir, options.opencode)
  try {
    if (!options.apply) {
      const plan = await describeCleanPlan(deps, rule)
      const json = { status: 'planned', dryRun: true, fingerprint: plan.fingerprint, sessions: plan.sessions, parts: plan.parts, bytes: plan.bytes, tokens: plan.tokens, skipped: plan.skipped, list: plan.list }
      const text = `${plan.parts} parts (${formatBytes(plan.bytes)}, ~${plan.tokens} tokens) in ${plan.sessions} sessions would go.\n` +
        (plan.sessions ? `To apply it, run the same command with --apply ${plan.fingerprint}\n` : '')
      return { code: EXIT.done, json, text }
    }
    const timer = setInterval(() => {
      const s = deps.storage.clean.status()
      if (s.state === 'running') progress(`clean: ${s.done.sessions}/${s.total.sessions} sessions, ${s.done.parts} parts`)
    }, 250)
    try {
      const started = await startClean(deps, { rule, fingerprint: options.apply }, { wait: true })
      if (started.status !== 'started' || !started.result) {
        const detail = 'detail' in started ? started.detail : 'not started'
        return { code: EXIT.refused, json: { status: started.status, dryRun: false, fingerprint: options.apply, detail }, text: `${started.status}: ${detail}\n` }
      }
      const r = started.result
      const json = { status: r.status, dryRun: false, fingerprint: options.apply, sessions: r.pruned.sessions, parts: r.pruned.parts, bytes: r.pruned.bytes, tokens: r.pruned.tokens, blocked: r.pruned.blocked, message: r.message }
      return { code: EXIT.done, json, text: `${r.message}\nThen: loupe reclaim\n` }
    } finally {
      clearInterval(timer)
    }
  } finally {
    await deps.close()
    opencode.db.close()
  }
}

import { publicProcedure, router } from '../../trpc/init.js'
import { summarizeUsageInput } from './overview.schema.js'
import { summarizeFileUsage } from './overview.service.js'

export const overviewRouter = router({
  /** Tokens and cost over time by model or project, the range's biggest sessions, and a check against the sessions' own totals. */
  usage: publicProcedure.input(summarizeUsageInput).query(({ ctx, input }) => summarizeFileUsage(ctx.deps, input)),
})

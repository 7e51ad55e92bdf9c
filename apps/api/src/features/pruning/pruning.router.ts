import { publicProcedure, router } from '../../trpc/init.js'
import { previewInput, pruneBatchInput, pruneInput, sessionPlanInput } from './pruning.schema.js'
import { liveState, previewMessage, pruneBatch, pruneMessage, sessionPlan } from './pruning.service.js'

export const pruningRouter = router({
  preview: publicProcedure.input(previewInput).query(({ ctx, input }) => previewMessage(ctx.deps, input)),
  prune: publicProcedure.input(pruneInput).mutation(({ ctx, input }) => pruneMessage(ctx.deps, input)),
  pruneBatch: publicProcedure.input(pruneBatchInput).mutation(({ ctx, input }) => pruneBatch(ctx.deps, input)),
  /** Whether OpenCode may be running the session now (checkLive), with why and the fix. */
  liveState: publicProcedure.input(sessionPlanInput).query(({ ctx, input }) => liveState(ctx.deps, input)),
  sessionPlan: publicProcedure.input(sessionPlanInput).query(({ ctx, input }) => sessionPlan(ctx.deps, input)),
})

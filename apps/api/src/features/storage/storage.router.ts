import { publicProcedure, router } from '../../trpc/init.js'
import { runCompaction } from './compact.service.js'
import { describeCleanPlan } from './clean-plan.service.js'
import { startClean } from './clean-apply.service.js'
import { doctorStatus } from './doctor.service.js'
import { reclaimCheck } from './reclaim.service.js'
import { removeBackup, startReclaim } from './reclaim-start.service.js'
import { doctorDepsOf, reclaimDepsOf } from './storage-deps.js'
import { cleanApplyInput, cleanPlanInput, compactInput, doctorInput, reclaimInput, removeBackupInput } from './storage.schema.js'
import { describeStorage } from './storage.service.js'

export const storageRouter = router({
  info: publicProcedure.query(({ ctx }) => describeStorage(ctx.deps)),
  compact: publicProcedure.input(compactInput).mutation(({ ctx, input }) => runCompaction(ctx.deps, input)),
  compactStatus: publicProcedure.query(({ ctx }) => ctx.deps.compaction.status()),
  compactStop: publicProcedure.mutation(({ ctx }) => ({ stopping: ctx.deps.compaction.stop() })),
  /** Where the bytes of the whole file are: the cached report, or the running scan's progress. */
  doctor: publicProcedure.input(doctorInput).query(({ ctx, input }) => doctorStatus(doctorDepsOf(ctx.deps), input)),
  /** Sizes, free pages and disk, who holds the file, backups, and the running or last reclaim. */
  reclaimStatus: publicProcedure.query(({ ctx }) => reclaimCheck(reclaimDepsOf(ctx.deps))),
  reclaim: publicProcedure.input(reclaimInput).mutation(({ ctx, input }) => startReclaim(reclaimDepsOf(ctx.deps), input)),
  /** What a DB-wide retention clean-up would remove, with the fingerprint `cleanApply` needs. */
  cleanPlan: publicProcedure.input(cleanPlanInput).query(({ ctx, input }) => describeCleanPlan(ctx.deps, input.rule)),
  cleanApply: publicProcedure.input(cleanApplyInput).mutation(({ ctx, input }) => startClean(ctx.deps, input)),
  cleanStatus: publicProcedure.query(({ ctx }) => ctx.deps.storage.clean.status()),
  cleanStop: publicProcedure.mutation(({ ctx }) => ({ stopping: ctx.deps.storage.clean.stop() })),
  removeBackup: publicProcedure.input(removeBackupInput).mutation(({ ctx, input }) => removeBackup(ctx.deps.opencode.path, input)),
})

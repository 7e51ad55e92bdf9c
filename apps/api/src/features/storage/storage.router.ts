import { publicProcedure, router } from '../../trpc/init.js'
import { runCompaction } from './compact.service.js'
import { compactInput } from './storage.schema.js'
import { describeStorage } from './storage.service.js'

export const storageRouter = router({
  info: publicProcedure.query(({ ctx }) => describeStorage(ctx.deps)),
  compact: publicProcedure.input(compactInput).mutation(({ ctx, input }) => runCompaction(ctx.deps, input)),
  compactStatus: publicProcedure.query(({ ctx }) => ctx.deps.compaction.status()),
  compactStop: publicProcedure.mutation(({ ctx }) => ({ stopping: ctx.deps.compaction.stop() })),
})

import { publicProcedure, router } from '../../trpc/init.js'
import { compactEventLog } from './compact.service.js'
import { compactInput } from './storage.schema.js'
import { describeStorage } from './storage.service.js'

export const storageRouter = router({
  info: publicProcedure.query(({ ctx }) => describeStorage(ctx.deps)),
  compact: publicProcedure.input(compactInput).mutation(({ ctx, input }) => compactEventLog(ctx.deps, input)),
})

import { publicProcedure, router } from '../../trpc/init.js'
import { describeStorage } from './storage.service.js'

export const storageRouter = router({
  info: publicProcedure.query(({ ctx }) => describeStorage(ctx.deps)),
})

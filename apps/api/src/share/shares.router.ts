import { publicProcedure, router } from '../trpc/init.js'
import { createShare, createShareInput, listShares, listSharesInput, revokeShare, revokeShareInput } from './shares.service.js'

/** The owner's side of LAN share links (behind Loupe's own auth, like every procedure). */
export const sharesRouter = router({
  create: publicProcedure.input(createShareInput).mutation(({ ctx, input }) => createShare(ctx.deps, input)),
  list: publicProcedure.input(listSharesInput).query(({ ctx, input }) => listShares(ctx.deps, input)),
  revoke: publicProcedure.input(revokeShareInput).mutation(({ ctx, input }) => revokeShare(ctx.deps, input)),
})

import { publicProcedure, router } from '../../trpc/init.js'

export const eventsRouter = router({
  /**
   * Every committed prune (and every identical retry), for every open tab: ids and the revision
   * only. A tab re-reads the native message; it never rebuilds the remainder itself.
   */
  pruned: publicProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const event of ctx.deps.events.iterate('pruned', signal)) yield event
  }),
})

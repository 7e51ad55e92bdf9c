import { publicProcedure, router } from '../../trpc/init.js'
import { candidates } from './candidates.service.js'
import { candidatesInput, searchInput } from './history.schema.js'
import { indexedToolList, search } from './history.service.js'

export const historyRouter = router({
  search: publicProcedure.input(searchInput).query(({ ctx, input }) => search(ctx.deps, input)),
  /** The matching tool calls and reasoning of finished assistant messages, by message, for pruning.prune. */
  candidates: publicProcedure.input(candidatesInput).query(({ ctx, input }) => candidates(ctx.deps, input)),
  /** The tools history holds calls of, with counts (null until the index is ready). */
  tools: publicProcedure.query(({ ctx }) => indexedToolList(ctx.deps)),
  /** The index's build state for a progress bar: parts indexed of total, MB/s. */
  status: publicProcedure.query(({ ctx }) => ctx.deps.searchIndex.status()),
  /** The same, pushed while it changes (SSE). */
  progress: publicProcedure.subscription(async function* ({ ctx, signal }) {
    yield ctx.deps.searchIndex.status()
    for await (const _ of ctx.deps.events.iterate('indexProgress', signal)) yield ctx.deps.searchIndex.status()
  }),
})

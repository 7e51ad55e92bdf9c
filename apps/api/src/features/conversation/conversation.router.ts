import { publicProcedure, router } from '../../trpc/init.js'
import { imagesConversationInput, locationInput } from './conversation.schema.js'
import { conversationCatalog, findImagesConversation, imagesConversation } from './conversation.service.js'

export const conversationRouter = router({
  /** Open (find or create) or create the location's Images conversation; then exclude its design folder in git. */
  images: publicProcedure.input(imagesConversationInput).mutation(({ ctx, input }) => imagesConversation(ctx.deps, input)),
  /** The location's Images conversation, if any; creates nothing. */
  find: publicProcedure.input(locationInput).query(({ ctx, input }) => ({
    ...findImagesConversation(ctx.deps, input),
    server: ctx.deps.opencodeClient.url ? { configured: true as const, url: ctx.deps.opencodeClient.url } : { configured: false as const, url: null },
  })),
  /** Agents and models OpenCode offers at the location, for creating. */
  catalog: publicProcedure.input(locationInput).query(({ ctx, input }) => conversationCatalog(ctx.deps, input)),
})

import { publicProcedure, router } from '../../trpc/init.js'
import { breakdownSession } from './breakdown.service.js'
import { getMessage, listMessages, pruneNotes } from './messages.service.js'
import { getMessageInput, getSessionInput, listMessagesInput, listProjectsInput, listSessionsInput, pruneNotesInput } from './sessions.schema.js'
import { getSession, listProjects, listSessions } from './sessions.service.js'

export const sessionsRouter = router({
  list: publicProcedure.input(listSessionsInput).query(({ ctx, input }) => listSessions(ctx.deps, input)),
  projects: publicProcedure.input(listProjectsInput).query(({ ctx, input }) => listProjects(ctx.deps, input)),
  get: publicProcedure.input(getSessionInput).query(({ ctx, input }) => getSession(ctx.deps, input)),
  breakdown: publicProcedure.input(getSessionInput).query(({ ctx, input }) => breakdownSession(ctx.deps, input)),
  messages: publicProcedure.input(listMessagesInput).query(({ ctx, input }) => listMessages(ctx.deps, input)),
  message: publicProcedure.input(getMessageInput).query(({ ctx, input }) => getMessage(ctx.deps, input)),
  /** Where Loupe pruned these messages (parts removed, when), for a note in the transcript. */
  pruneNotes: publicProcedure.input(pruneNotesInput).query(({ ctx, input }) => pruneNotes(ctx.deps, input)),
})

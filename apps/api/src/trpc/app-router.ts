import { historyRouter } from '../features/history/history.router.js'
import { eventsRouter } from '../features/events/events.router.js'
import { pruningRouter } from '../features/pruning/pruning.router.js'
import { galleryRouter } from '../features/gallery/gallery.router.js'
import { conversationRouter } from '../features/conversation/conversation.router.js'
import { sessionsRouter } from '../features/sessions/sessions.router.js'
import { sharesRouter } from '../share/shares.router.js'
import { storageRouter } from '../features/storage/storage.router.js'
import { overviewRouter } from '../features/overview/overview.router.js'
import { router } from './init.js'

export const appRouter = router({
  storage: storageRouter,
  sessions: sessionsRouter,
  history: historyRouter,
  pruning: pruningRouter,
  events: eventsRouter,
  gallery: galleryRouter,
  shares: sharesRouter,
  conversation: conversationRouter,
  overview: overviewRouter,
})

export type AppRouter = typeof appRouter

import type { AppDeps } from '../../deps.js'

/** What previews, prunes and plans use: the opened file, pruning's state, the clock, ids, events, OpenCode's server. */
export type PruningDeps = Pick<AppDeps, 'opencode' | 'pruning' | 'clock' | 'randomBytes' | 'events' | 'config' | 'opencodeClient' | 'tokenizer'>

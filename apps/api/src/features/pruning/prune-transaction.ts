import {
  imageUrisInParts,
  LIMITS,
  overEditLimit,
  planPrune,
  pruneReceiptKey,
  type PruneBlock,
  type PruneReceipt,
  type PruneSelection,
  type ReceiptRequest,
} from '@loupe/domain'
import Database from 'better-sqlite3'
import { nodeDigest, sha256Bytes } from '../../lib/hash.js'
import { PruneConflict, PruneUnsupported, type PruneEffects } from '../../store/prune.store.js'
import { checkMedia, checkWriteTarget, fenceSession } from './fences.js'
import type { PruneContext } from './prune-context.js'
import { deferCheckpoints } from './pruning-runtime.js'
import type { PruningDeps } from './pruning.deps.js'

export interface PruneRequest {
  messageID: string
  revision: string
  selection: PruneSelection
}

export type TransactionOutcome =
  | { ok: true; receipt: PruneReceipt; replay: boolean; effects: PruneEffects | null; removedImages: string[] }
  | { ok: false; block: PruneBlock }

const NO_EFFECTS = null
const fail = (reason: PruneBlock['reason'], detail: string): TransactionOutcome => ({ ok: false, block: { reason, detail } })

/**
 * One prune of one message as ONE synchronous `BEGIN IMMEDIATE` transaction, in the design's order:
 * file identity and schema, session fences, receipt lookup, compare-and-swap on the revision of the
 * stored content, the write, the receipt. Nothing awaits while it is open; any failure rolls back
 * both content and receipt. A busy database answers `maintenance_required`.
 */
export function runPruneTransaction(deps: PruningDeps, ctx: PruneContext, request: PruneRequest): TransactionOutcome {
  const { db } = deps.opencode
  const { session, store } = ctx
  const pruneStore = store.prune
  const keyRequest: ReceiptRequest =
    request.selection.kind === 'allTechnical'
      ? { storage: session.storage, sessionID: session.id, messageID: request.messageID, revision: request.revision, allTechnical: true }
      : { storage: session.storage, sessionID: session.id, messageID: request.messageID, revision: request.revision, indexes: request.selection.indexes }
  const key = pruneReceiptKey(keyRequest, sha256Bytes)
  deferCheckpoints(deps)
  try {
    const outcome = db.write((): TransactionOutcome => {
      const target = checkWriteTarget(deps.opencode, pruneStore)
      if (target) return { ok: false, block: target }
      const fence = fenceSession(pruneStore.sessionFence(db, session.id))
      if (fence) return { ok: false, block: fence }
      const found = store.receipts.lookup(db, key, request.messageID)
      if (found.kind === 'found') return { ok: true, receipt: found.receipt, replay: true, effects: NO_EFFECTS, removedImages: [] }
      if (found.kind === 'foreign') return fail('unsupported_storage', 'A receipt row Loupe does not recognize is in the way.')

      const bytes = pruneStore.storedBytes(db, session.id, request.messageID)
      if (bytes === undefined) return fail('not_deletable', 'This message is not in the session any more.')
      if (bytes > LIMITS.messageStoredBytes) return fail('not_deletable', overEditLimit(bytes))
      const [native] = store.loadMessages(db, session.id, [request.messageID], { canonical: true })
      if (!native) return fail('not_deletable', 'This message is not in the session any more.')
      const media = checkMedia(pruneStore, native)
      if (media) return { ok: false, block: media }
      const plan = planPrune(native, { revision: request.revision, selection: request.selection }, { digest: nodeDigest })
      if (!plan.ok) return { ok: false, block: plan.error }

      const now = deps.clock.now()
      const effects = pruneStore.apply(db, { sessionID: session.id, messageID: request.messageID, plan: plan.value, storedText: native.storedText, now, randomBytes: deps.randomBytes })
      const receipt: PruneReceipt = { status: 'pruned', messageID: request.messageID, revision: plan.value.nextRevision, removedCount: plan.value.removed.length }
      store.receipts.save(db, { key, sessionID: session.id, receipt, now })
      // The URIs only (no copy, no hashing while the write lock is held); settle hashes them.
      return { ok: true, receipt, replay: false, effects, removedImages: imageUrisInParts(native, plan.value.removed) }
    })
    if (!outcome.ok) return fail('maintenance_required', 'OpenCode is writing to the database right now; try again in a moment.')
    return outcome.value
  } catch (error) {
    if (error instanceof PruneConflict) return fail('conflict', 'The message changed while Loupe was writing; look again.')
    if (error instanceof PruneUnsupported) return fail('unsupported_storage', error.message)
    if (error instanceof Database.SqliteError) return fail('unsupported_storage', `SQLite refused the change (${error.code}); nothing was written.`)
    throw error
  }
}

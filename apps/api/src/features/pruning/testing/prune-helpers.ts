import { computeRevision, type NativeMessage } from '@loupe/domain'
import Database from 'better-sqlite3'
import { type createCaller, type TestDeps } from '../../../../test/harness.js'

export type Caller = ReturnType<typeof createCaller>

/** A second, raw connection to the test's copy: how tests play "another process" on the same file. */
export function withRaw<T>(deps: TestDeps, fn: (db: Database.Database) => T): T {
  const db = new Database(deps.opencode.path)
  db.pragma('busy_timeout = 5000')
  try {
    return fn(db)
  } finally {
    db.close()
  }
}

/** The native message as the UI reads it, with its revision. */
export async function readMessage(caller: Caller, sessionID: string, messageID: string, storage: 'v1' | 'v2') {
  const message: NativeMessage = await caller.sessions.message({ sessionID, messageID, storage })
  const content = message.storage === 'v1' ? message.parts : ((message.message.content as unknown[] | undefined) ?? [])
  return { message, content, revision: computeRevision(content) }
}

/** Collect `pruned` events while `fn` runs. */
export async function collectPruned<T>(deps: TestDeps, fn: () => Promise<T>) {
  const seen: unknown[] = []
  const off = deps.events.subscribe('pruned', (e) => seen.push(e))
  try {
    return { value: await fn(), events: seen }
  } finally {
    off()
  }
}

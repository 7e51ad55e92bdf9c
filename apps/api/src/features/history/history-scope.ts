import { bindScope, type ParsedQuery, type SearchKind, type SnippetSegment, type StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import type { MatchScope } from '../../index/fts-query.js'
import { indexSourcesOf, type IndexSources } from '../../store/index-sources.js'
import { resolveSession } from '../../store/resolve-session.js'
import type { SearchInput } from './history.schema.js'

export interface SearchHit {
  sessionID: string
  storage: StorageGeneration
  sessionTitle: string
  /** The session's working directory (sessions of one title are told apart by it). */
  sessionDirectory: string
  /** null for a session-title hit. */
  messageID: string | null
  /** 1.x: the part's id. */
  partID?: string
  /** 2.x: the content item's index in `data.content`. */
  index?: number
  kind: SearchKind
  tool?: string
  snippet: SnippetSegment[]
  /** Higher is better (negated bm25); 0 for literal-scan hits. */
  score: number
  time: number
}

/** What the history services read: OpenCode's file and the search index. */
export type HistoryDeps = Pick<AppDeps, 'opencode' | 'searchIndex'>

export interface ResolvedScope {
  match: MatchScope
  since: number | null
  until: number | null
  /** Sessions the scope allows (`storage:id`), when it is narrower than everything. */
  sessions: Set<string> | null
  binding: string
  /** What the index reads from each generation of the opened database. */
  sources: IndexSources
}

/**
 * Check a search scope against the opened database: a session must exist (not_found otherwise,
 * the same answer as an unknown id), a project or directory must be one some session has.
 * The binding ties cursors to the exact query and scope.
 */
export function resolveScope(deps: Pick<AppDeps, 'opencode'>, input: Omit<SearchInput, 'query' | 'cursor' | 'limit'>, query: ParsedQuery): ResolvedScope {
  const { opencode } = deps
  if (!opencode.layout.readable) {
    throw new AppError('unsupported_storage', `Loupe does not recognize this database's schema: ${opencode.layout.problems.join('; ')}`)
  }
  const sources = indexSourcesOf(opencode)
  let session: { storage?: StorageGeneration; id: string } | undefined
  if (input.sessionID) {
    const resolved = resolveSession(opencode, input.sessionID, input.storage)
    session = input.storage ? { storage: input.storage, id: resolved.session.id } : { id: resolved.session.id }
  }
  if (input.projectID || input.directory) opencode.db.read(() => {
    if (input.projectID && !sources.hasSession(opencode.db, 'project_id', input.projectID)) throw new AppError('not_found', `No sessions in project ${input.projectID}.`)
    if (input.directory && !sources.hasSession(opencode.db, 'directory', input.directory)) throw new AppError('not_found', 'No session was started in that directory.')
  })
  if (input.since !== undefined && input.until !== undefined && input.since > input.until) {
    throw new AppError('invalid_input', '`since` is after `until`.')
  }
  let sessions: Set<string> | null = null
  if (input.projectID || input.directory) {
    sessions = new Set(opencode.db.read(() => sources.sessions(opencode.db))
      .filter((s) => (!input.projectID || s.project_id === input.projectID) && (!input.directory || s.directory === input.directory))
      .map((s) => `${s.gen}:${s.id}`))
  }
  if (session) {
    const allowed = storagesOf(session, sources).map((g) => `${g}:${session!.id}`)
    sessions = new Set(allowed.filter((k) => !sessions || sessions.has(k)))
  }
  const kinds = input.kinds ? [...new Set(input.kinds)].sort() : undefined
  const match: MatchScope = { kinds, tool: input.tool, session: session && { id: session.id, storages: storagesOf(session, sources) }, projectID: input.projectID, directory: input.directory }
  const binding = bindScope({
    kind: 'history', terms: query.terms, session: session ?? null, projectID: input.projectID ?? null, directory: input.directory ?? null,
    kinds: kinds ?? null, tool: input.tool ?? null, since: input.since ?? null, until: input.until ?? null,
  })
  return { match, since: input.since ?? null, until: input.until ?? null, sessions, binding, sources }
}

/** The generations a session scope covers: the one asked for, or every one the file has (an id names one session). */
const storagesOf = (session: { storage?: StorageGeneration }, sources: IndexSources): StorageGeneration[] =>
  session.storage ? [session.storage] : sources.all.map((s) => s.gen)


import { AppError } from '../errors.js'
import type { SearchHit } from '../features/history/history-scope.js'
import { search, type SearchAnswer } from '../features/history/history.service.js'
import { createSearchIndex, type SearchIndex } from '../index/search-index.js'
import { createEventBus } from '../lib/event-bus.js'
import { toSearchInput } from '../mcp/mcp-search.js'
import { snippetText } from '../mcp/mcp-text.js'
import { sessionSearchArgs, type SessionSearchArgs } from '../mcp/mcp.schema.js'
import type { OpenCodeHandle } from '../store/open-opencode.js'
import { CliUsageError, type CliOptions } from './cli-args.js'
import { createProgress, EXIT, type CliIo, type CommandResult } from './cli-io.js'
import { cell, parseLimit, parseTime, refusing, shortTime } from './cli-read.js'
import { openForCli } from './open-db.js'

export const SEARCH_USAGE = `Usage: loupe search QUERY [--db PATH] [--data-dir DIR] [--json] [options]

Ranked full-text search over all history, the UI's and session_search's search (words, "phrases", -exclude, prefix*).
  --scope S      all (default), a project directory (absolute, or ./relative to here) or a session id
  --kind K       text, reasoning, tool or user; repeat or comma-separate for several
  --tool NAME    only calls of this tool
  --since D      from this date (2026-11-01, UTC), date-time or epoch ms
  --until D      to this date (the whole day), date-time or epoch ms
  --limit N      at most N hits (default 20, at most 1000)
  --no-build     do not build or catch up the index first: answer from it as it is, or by the literal scan
  --json         one JSON object per line, each a hit as history.search gives it, plus mode and snippetText

The index lives in Loupe's data dir; the first search builds it (progress on stderr), later ones catch up.
`

const MAX_HITS = 1000
const PAGE_MAX = 100

/** Build or catch up the sidecar as the server's indexer does, with progress on stderr. */
function prepareIndex(searchIndex: SearchIndex, io: CliIo) {
  const progress = createProgress(io)
  const before = searchIndex.status()
  if (before.state === 'unavailable') return
  progress(before.state === 'building' ? 'index: building the search index (once; later searches only catch up)…' : 'index: catching up with OpenCode…', true)
  searchIndex.runUntilIdle((s) => {
    if (s.state === 'building' && s.totalParts > 0) progress(`index: ${s.indexedParts} of ${s.totalParts} rows (${Math.floor((s.indexedParts / s.totalParts) * 100)}%)`)
  })
  const after = searchIndex.status()
  progress(`index: ${after.state}, ${after.indexedParts} rows`, true)
}

function hitLine(rank: number, hit: SearchHit): string {
  const kind = hit.tool ? `${hit.kind}:${hit.tool}` : hit.kind
  const title = `${hit.sessionTitle || '(untitled)'}${hit.sessionDirectory ? ` — ${hit.sessionDirectory}` : ''}`
  return `${String(rank).padStart(3)}  ${cell(shortTime(hit.time), 16)}  ${cell(kind, 14)}  ${cell(hit.sessionID, 30)}  ${cell(title, 70).trimEnd()}\n` +
    `     ${hit.messageID ?? '(title)'}  ${cell(snippetText(hit.snippet), 160).trimEnd()}`
}

/** The flags as session_search's arguments, checked by its schema before anything is opened or built. */
function searchArgs(options: CliOptions): SessionSearchArgs {
  const args = sessionSearchArgs.safeParse({
    query: options.positionals.join(' '), scope: options.scope, kinds: options.kinds.length ? options.kinds : undefined, tool: options.tool,
    since: parseTime('--since', options.since, false), until: parseTime('--until', options.until, true),
  })
  if (!args.success) throw new AppError('invalid_input', `Invalid search: ${args.error.issues[0]?.path.join('.')} ${args.error.issues[0]?.message}`)
  return args.data
}

function collect(opencode: OpenCodeHandle, searchIndex: SearchIndex, args: SessionSearchArgs, limit: number, io: CliIo) {
  const progress = createProgress(io)
  const hits: SearchHit[] = []
  let answer: SearchAnswer
  let cursor: string | null = null
  do {
    answer = search({ opencode, searchIndex }, toSearchInput(args, cursor, Math.min(PAGE_MAX, limit - hits.length)))
    hits.push(...answer.hits)
    cursor = answer.cursor
    if (answer.scan) progress(`scan: ${Math.round(answer.scan.progress * 100)}% of history read, ${hits.length} hits`)
  } while (cursor && hits.length < limit)
  return { hits: hits.slice(0, limit), answer, more: !!cursor }
}

/** `loupe search QUERY`: `history.search` paged to the limit; read-only except for Loupe's own index. */
export async function searchCommand(options: CliOptions, io: CliIo): Promise<CommandResult> {
  if (options.positionals.length === 0) throw new CliUsageError('search needs a QUERY')
  const limit = parseLimit(options.limit, 20, MAX_HITS)
  const checked = await refusing(io, () => ({ code: EXIT.done, json: searchArgs(options), text: '' }))
  if (checked.code !== EXIT.done) return checked
  const args = checked.json as SessionSearchArgs
  const opencode = openForCli(options.db)
  const searchIndex = createSearchIndex({ opencode, dataDir: options.dataDir, events: createEventBus(), mode: 'manual' })
  try {
    return await refusing(io, () => {
      if (!options.noBuild) prepareIndex(searchIndex, io)
      const { hits, answer, more } = collect(opencode, searchIndex, args, limit, io)
      const how = answer.mode === 'index' ? 'ranked by the full-text index' : 'from the literal scan, in storage order (the index is not ready)'
      io.err(`search: ${hits.length} hit${hits.length === 1 ? '' : 's'} ${how}${more ? '; more with a higher --limit' : ''}\n`)
      for (const note of [answer.notice, answer.truncated ? 'Only the newest matches were ranked; a narrower query finds older ones.' : null]) if (note) io.err(`search: ${note}\n`)
      const lines = hits.map((h, i) => ({ rank: i + 1, mode: answer.mode, ...h, snippetText: snippetText(h.snippet) }))
      const text = hits.length === 0 ? 'No hits.\n' : `${hits.map((h, i) => hitLine(i + 1, h)).join('\n')}\n`
      return { code: EXIT.done, json: { status: 'done', mode: answer.mode, hits: lines }, jsonLines: lines, text }
    })
  } finally {
    await searchIndex.close()
    opencode.db.close()
  }
}

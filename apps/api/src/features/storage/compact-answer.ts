// What a compaction answers and reports while it runs: apart from the service, so the process-wide
// runner (a deps field) needs nothing from the service that takes the deps.

export interface CompactSession {
  sessionID: string
  title: string
  events: number
  eventsRedacted: number
  eventBytesBefore: number
  eventBytesAfter: number
  alreadyRedacted: number
  kept: number
  unknownTypes: number
}

/**
 * The answer `storage.compact` and `loupe compact` give. `sessions`: sessions in which events were (or,
 * in a dry run, would be) redacted; the byte totals cover every session with events, refused ones
 * unchanged. `stopped`: asked to stop, or OpenCode became busy mid-run (`detail` says which).
 */
export interface CompactAnswer {
  status: 'done' | 'stopped' | 'refused'
  dryRun: boolean
  sessions: number
  eventsRedacted: number
  eventBytesBefore: number
  eventBytesAfter: number
  refused: { sessionID: string; reason: string }[]
  perSession: CompactSession[]
  detail: string | null
  notes: string[]
}

export interface CompactProgress {
  sessionID: string
  sessionsDone: number
  sessionsTotal: number
  eventBytesDone: number
  eventBytesTotal: number
}

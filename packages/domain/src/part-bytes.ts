import { canonicalPieces, piecesBytes, type TextDigest } from './revision.js'

/**
 * The size of one part everywhere Loupe shows it: UTF-8 bytes of the part serialized as JSON in
 * its native read form (1.x part with its ids, 2.x content item). The prune review, the selection
 * and the transcript all count this, so a part reads the same size on every screen. Canonical
 * JSON only reorders keys, so this equals the stored JSON's length too.
 */
export function partBytes(part: unknown, digest?: TextDigest): number {
  try {
    return piecesBytes(canonicalPieces(part), digest)
  } catch {
    return 0
  }
}

/** One word per tool status, shared by the transcript and the prune review. */
const TOOL_STATUS_WORDS: Record<string, string> = {
  completed: 'done',
  error: 'failed',
  running: 'running',
  pending: 'pending',
  streaming: 'streaming',
}

/** The word a person reads for a tool's status; an unknown status is shown as it is, never guessed. */
export function toolStatusWord(status: string | undefined): string {
  if (!status) return 'unknown'
  return TOOL_STATUS_WORDS[status] ?? status
}

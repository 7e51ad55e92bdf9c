import { ID_PATTERN, LIMITS, QUERY_LIMITS } from '@loupe/domain'
import { z } from 'zod'

/** Every answer's text stays under this many UTF-8 bytes; the rest comes with a cursor. */
export const MCP_ANSWER_BYTES = 32 * 1024

const time = z.number().int().min(0).max(8_640_000_000_000_000)
const id = z.string().regex(ID_PATTERN).max(LIMITS.idLength)
const cursor = z.string().min(1).max(LIMITS.cursorChars)

// Plain objects, not strict ones: a model that adds an argument of its own still gets an answer,
// and a refusal's message never echoes a caller's key names (which could be of any length).
export const sessionSearchShape = {
  query: z.string().min(1).max(QUERY_LIMITS.inputChars).describe('Words (all must match), "exact phrase", -exclude, prefix*'),
  scope: z.string().min(1).max(4096).optional()
    .describe('"all" (default), a project directory (absolute path a session was started in), or a session id'),
  kinds: z.array(z.enum(['text', 'reasoning', 'tool', 'user'])).min(1).max(4).optional()
    .describe('Only these part kinds; default all (titles included)'),
  tool: z.string().min(1).max(128).optional().describe('Only calls of this tool (e.g. bash)'),
  since: time.optional().describe('Epoch milliseconds, inclusive'),
  until: time.optional().describe('Epoch milliseconds, inclusive'),
  limit: z.number().int().min(1).max(50).optional().describe('Hits per answer, at most 50 (default 10)'),
  cursor: cursor.optional().describe('The cursor of the previous answer, for more hits'),
}

export const sessionReadShape = {
  sessionID: id.describe('A session id (ses_…), from a search hit'),
  messageID: id.optional().describe('A message id (msg_…) from a search hit; default the newest message'),
  before: z.number().int().min(0).max(5).optional().describe('Messages before it (default 2)'),
  after: z.number().int().min(0).max(5).optional().describe('Messages after it (default 2)'),
  cursor: cursor.optional().describe('The cursor of the previous answer, to read on'),
}

export const storageReportShape = {}

export const sessionSearchArgs = z.object(sessionSearchShape)
export const sessionReadArgs = z.object(sessionReadShape)
export type SessionSearchArgs = z.infer<typeof sessionSearchArgs>
export type SessionReadArgs = z.infer<typeof sessionReadArgs>

import { AppError } from '../errors.js'
import { readSessionWindow } from '../mcp/mcp-read.js'
import { sessionReadArgs } from '../mcp/mcp.schema.js'
import { CliUsageError, type CliOptions } from './cli-args.js'
import { EXIT, type CliIo, type CommandResult } from './cli-io.js'
import { refusing } from './cli-read.js'
import { openForCli } from './open-db.js'

export const SHOW_USAGE = `Usage: loupe show SESSION [--message ID] [--cursor C] [--db PATH] [--json]

A message of a session and its neighbours as readable text (tool calls summarised, outputs clipped),
the same reading MCP's session_read gives; without --message, the newest messages.
  --message ID   the message to read around (a search hit's messageID)
  --cursor C     read on from where the previous answer stopped
  --json         one JSON object: the session, the text, the ids of the messages shown and the cursor
`

/** `loupe show SESSION`: MCP's session_read window, read-only. */
export async function showCommand(options: CliOptions, io: CliIo): Promise<CommandResult> {
  const [sessionID, ...rest] = options.positionals
  if (!sessionID) throw new CliUsageError('show needs a SESSION id')
  if (rest.length) throw new CliUsageError(`unexpected argument ${rest[0]}`)
  const opencode = openForCli(options.db)
  try {
    return await refusing(io, () => {
      const args = sessionReadArgs.safeParse({ sessionID, messageID: options.message, cursor: options.cursor })
      if (!args.success) throw new AppError('invalid_input', `Invalid ${args.error.issues[0]?.path.join('.')}: ${args.error.issues[0]?.message}`)
      const read = readSessionWindow({ opencode }, args.data)
      const more = read.cursor ? `\n\nMore: loupe show ${read.session.id} --cursor ${read.cursor}` : ''
      return {
        code: EXIT.done,
        json: { status: 'done', session: read.session, messages: read.messages, cursor: read.cursor, text: read.text },
        text: `${read.text}${more}\n`,
      }
    })
  } finally {
    opencode.db.close()
  }
}

import { AppError } from '../errors.js'
import { openOpenCode, type OpenCodeHandle } from '../store/open-opencode.js'

/** The database a command works on; the CLI never starts OpenCode to find or create one. */
export function openForCli(db: string | null): OpenCodeHandle {
  if (!db) throw new AppError('unavailable', 'No OpenCode database found. Pass --db with the path to opencode.db.')
  return openOpenCode(db)
}

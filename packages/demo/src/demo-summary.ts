/** What a session did so far, for the summary an automatic compaction writes. */
export interface Transcript {
  prompts: string[]
  tools: Set<string>
  files: Set<string>
}

const firstLine = (text: string) => (text.split('\n')[0] ?? '').slice(0, 160)

/** The Markdown template OpenCode's summarization agent fills in (opencode-storage.md §7.1). */
export function summarizeTranscript(t: Transcript): string {
  const [objective = 'Continue the current task.', ...rest] = t.prompts.map(firstLine)
  const list = (items: string[], none = '- (none)') => (items.length ? items.map((i) => `- ${i}`).join('\n') : none)
  return [
    '## Objective',
    `- ${objective}`,
    '',
    '## Important Details',
    list(rest.map((p) => `Follow-up: ${p}`)),
    '',
    '## Work State',
    '### Completed',
    list([...t.tools].map((name) => `used \`${name}\``)),
    '',
    '### Active',
    `- ${rest.length ? firstLine(rest[rest.length - 1] ?? '') : objective}`,
    '',
    '### Blocked',
    '- (none)',
    '',
    '## Next Move',
    "1. Wait for the user's next request",
    '2. Re-run the test suite after any further change',
    '',
    '## Relevant Files',
    list([...t.files].map((f) => `${f}: touched in this conversation`)),
  ].join('\n')
}

/** One line of a file or diff view; `old`/`n` are line numbers (a diff has both sides). */
export interface CodeRow {
  n?: number
  old?: number
  sign?: '+' | '-' | ' '
  text: string
  /** A hunk header or a gap between hunks. */
  gap?: boolean
}

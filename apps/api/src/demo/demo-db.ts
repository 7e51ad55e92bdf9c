export interface DemoOptions {
  now: number
  sessions?: number
  seed?: number
}

export interface DemoSummary {
  sessions: number
  messages: number
  parts: number
}

/** Write a realistic OpenCode 1.18.33 database at `file` (replaced by the demo generator task). */
export function generateDemoDb(file: string, options: DemoOptions): DemoSummary {
  throw new Error(`demo generator not written yet (${file}, ${options.now})`)
}

import type { DemoImageKind } from '../png.js'

/** A bug a session finds and fixes: the module ships with `oldString`, the fix writes `newString`. */
export interface BugDef {
  title: string
  prompt: string
  file: string
  test: string
  failure: string
  reasoning: string
  oldString: string
  newString: string
  answer: string
}

export interface FeatureDef {
  title: string
  prompt: string
  todos: [string, string, string]
  newFile: { path: string; content: string }
  /** Wire the new file in, applied in order. */
  edits: { file: string; oldString: string; newString: string }[]
  answer: string
  followUp: { prompt: string; testFile: { path: string; content: string }; answer: string }
}

export interface QuestionDef {
  title: string
  prompt: string
  reads: string[]
  grep?: string
  answer: string
}

export interface ExploreDef {
  description: string
  prompt: string
  pattern: string
  reads: string[]
  result: string
  answer: string
  title: string
  userPrompt: string
}

/** One demo repository: its files, how it tests and builds, and the work sessions do in it. */
export interface ProjectDef {
  key: string
  files: Record<string, string>
  test: { command: string; style: 'vitest' | 'cargo' | 'node' }
  build: { command: string; style: 'vite' | 'cargo' | 'tsc' }
  /** Words for generated test names and log lines. */
  vocabulary: { nouns: string[]; verbs: string[] }
  images: { path: string; kind: DemoImageKind; width: number; height: number }[]
  bugs: BugDef[]
  features: FeatureDef[]
  questions: QuestionDef[]
  explore: ExploreDef
  /** A plan-agent session with an @-mentioned file. */
  plan: { file: string; prompt: string; grep: string; reasoning: string; answer: string; title: string }
}

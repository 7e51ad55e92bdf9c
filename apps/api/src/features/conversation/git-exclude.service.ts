import { designExcludeRule, planExcludeAppend } from '@loupe/domain'
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { KeyedLock } from './keyed-lock.js'

/** What happened to the location's `.codenomad/design/` in git. */
export type GitExclusion =
  | { status: 'added'; rule: string; file: string }
  | { status: 'present'; rule: string; file: string }
  | { status: 'not-repository' }
  | { status: 'unavailable'; reason: string }

export interface GitEnvironment {
  /** What git runs with: the process's PATH and HOME (for safe.directory), never GIT_DIR and friends. */
  env: Record<string, string>
  timeoutMs: number
}

type GitAnswer = { ok: true; stdout: string } | { ok: false; missing: boolean; timedOut: boolean; stderr: string; message: string }

function runGit(cwd: string, args: string[], git: GitEnvironment): Promise<GitAnswer> {
  return new Promise((resolve) => {
    execFile('git', args, {
      cwd,
      env: { ...git.env, LC_ALL: 'C', LANG: 'C', LANGUAGE: '', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      timeout: git.timeoutMs,
      maxBuffer: 1024 * 1024,
      encoding: 'utf8',
      shell: false,
      windowsHide: true,
    }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, stdout })
      const code = (error as NodeJS.ErrnoException).code
      resolve({ ok: false, missing: code === 'ENOENT', timedOut: error.killed === true, stderr: String(stderr ?? ''), message: error.message })
    })
  })
}

const NOT_A_REPOSITORY = /^fatal: not a git repository \(or any /m

/**
 * Exclude `directory`'s `.codenomad/design/` through its own git: `rev-parse --show-prefix
 * --git-path info/exclude` in the C locale, then an append (never a rewrite, never .gitignore)
 * under `# codenomad`. Appends to one exclude file are serialized through `locks`.
 */
export async function excludeDesignDir(directory: string, git: GitEnvironment, locks: KeyedLock): Promise<GitExclusion> {
  const stat = await fs.stat(directory).catch(() => null)
  if (!stat?.isDirectory()) return { status: 'unavailable', reason: `${directory} no longer exists.` }
  const answer = await runGit(directory, ['rev-parse', '--show-prefix', '--git-path', 'info/exclude'], git)
  if (!answer.ok) {
    if (answer.missing) {
      const gone = !(await fs.stat(directory).catch(() => null))
      return { status: 'unavailable', reason: gone ? `${directory} no longer exists.` : 'git is not installed (not found on PATH).' }
    }
    if (answer.timedOut) return { status: 'unavailable', reason: `git did not answer within ${Math.round(git.timeoutMs / 1000)} s.` }
    if (NOT_A_REPOSITORY.test(answer.stderr)) return { status: 'not-repository' }
    const said = answer.stderr.trim().split('\n')[0] || answer.message
    return { status: 'unavailable', reason: `git could not read this repository: ${said}` }
  }
  const lines = answer.stdout.split('\n')
  if (lines.length !== 3 || lines[2] !== '' || !lines[1]) {
    return { status: 'unavailable', reason: 'git printed a location Loupe cannot express as an ignore rule.' }
  }
  const rule = designExcludeRule(lines[0]!)
  if (!rule.ok) return { status: 'unavailable', reason: 'The path of this location cannot be written as an ignore rule.' }
  const file = path.resolve(directory, lines[1]!)
  return locks.run(`git-exclude:${file}`, () => appendRule(file, rule.value))
}

async function appendRule(file: string, rule: string): Promise<GitExclusion> {
  try {
    await fs.mkdir(path.dirname(file), { recursive: true })
    // O_APPEND: what we add always lands after the bytes we read, whoever else writes.
    const handle = await fs.open(file, 'a+')
    try {
      const existing = (await handle.readFile()).toString('utf8')
      const plan = planExcludeAppend(existing, rule)
      if (plan.kind === 'present') return { status: 'present', rule, file }
      await handle.appendFile(plan.text, 'utf8')
      return { status: 'added', rule, file }
    } finally {
      await handle.close()
    }
  } catch (error) {
    return { status: 'unavailable', reason: `Could not update ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }
  }
}

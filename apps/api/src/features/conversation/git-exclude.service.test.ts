import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/harness.js'
import { gitEnvForTests } from '../../../../../tools/opencode-serve.js'
import { excludeDesignDir, type GitEnvironment } from './git-exclude.service.js'
import { createKeyedLock } from './keyed-lock.js'

describe('excludeDesignDir with the real git', () => {
  let root: string
  let git: GitEnvironment
  const locks = createKeyedLock()

  const run = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...git.env, LC_ALL: 'C' }, encoding: 'utf8' })
  /** A repository with one commit, so worktrees can be added. */
  const repo = (name = 'repo') => {
    const dir = path.join(root, name)
    fs.mkdirSync(dir, { recursive: true })
    run(dir, 'init', '-q', '-b', 'main')
    run(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'init')
    return dir
  }
  /** Untracked files git status lists (every file, not just directories). */
  const untracked = (cwd: string) => run(cwd, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).map((l) => l.slice(3))
  const ignored = (cwd: string, file: string) => {
    try {
      run(cwd, 'check-ignore', '-q', '--no-index', file)
      return true
    } catch {
      return false
    }
  }
  const put = (file: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, 'x')
  }

  beforeEach(() => {
    root = tempDir('loupe-git-')
    git = gitEnvForTests(root)
  })
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

  it('adds .codenomad/design/ at a worktree top, once, and git status stops listing its files', async () => {
    const dir = repo()
    put(path.join(dir, '.codenomad/design/mock.png'))
    put(path.join(dir, 'notes.txt'))
    expect(untracked(dir)).toEqual(['.codenomad/design/mock.png', 'notes.txt'])
    const exclude = path.join(dir, '.git/info/exclude')
    const template = fs.readFileSync(exclude)

    expect(await excludeDesignDir(dir, git, locks)).toEqual({ status: 'added', rule: '.codenomad/design/', file: exclude })
    expect(untracked(dir)).toEqual(['notes.txt'])
    const after = fs.readFileSync(exclude)
    expect(after.subarray(0, template.length).equals(template)).toBe(true)
    expect(after.subarray(template.length).toString()).toBe('# codenomad\n.codenomad/design/\n')

    expect(await excludeDesignDir(dir, git, locks)).toEqual({ status: 'present', rule: '.codenomad/design/', file: exclude })
    expect(fs.readFileSync(exclude).equals(after)).toBe(true)
  })

  it('anchors a nested location at its prefix', async () => {
    const dir = repo()
    const nested = path.join(dir, 'apps/web')
    fs.mkdirSync(nested, { recursive: true })
    const answer = await excludeDesignDir(nested, git, locks)
    expect(answer).toMatchObject({ status: 'added', rule: '/apps/web/.codenomad/design/' })
    expect(ignored(dir, 'apps/web/.codenomad/design/a.png')).toBe(true)
    expect(ignored(dir, '.codenomad/design/a.png')).toBe(false)
    expect(ignored(dir, 'x/apps/web/.codenomad/design/a.png')).toBe(false)
    put(path.join(nested, '.codenomad/design/a.png'))
    expect(untracked(nested)).toEqual([])
  })

  it('escapes glob characters in the path, so only that directory matches', async () => {
    const dir = repo()
    const odd = path.join(dir, 'a*b[1]?', 'back\\slash')
    fs.mkdirSync(odd, { recursive: true })
    const answer = await excludeDesignDir(odd, git, locks)
    expect(answer).toMatchObject({ status: 'added', rule: '/a\\*b\\[1]\\?/back\\\\slash/.codenomad/design/' })
    expect(ignored(dir, 'a*b[1]?/back\\slash/.codenomad/design/x.png')).toBe(true)
    // What the unescaped glob would also have matched:
    expect(ignored(dir, 'azb1q/back\\slash/.codenomad/design/x.png')).toBe(false)
    expect(ignored(dir, 'a*b[1]?/backslash/.codenomad/design/x.png')).toBe(false)
  })

  it('writes a worktree\'s rule into the shared info/exclude, read at every worktree\'s top', async () => {
    const main = repo()
    const worktree = path.join(root, 'wt')
    run(main, 'worktree', 'add', '-q', worktree)
    const answer = await excludeDesignDir(worktree, git, locks)
    expect(answer).toEqual({ status: 'added', rule: '.codenomad/design/', file: path.join(main, '.git/info/exclude') })
    expect(fs.existsSync(path.join(main, '.git/worktrees/wt/info/exclude'))).toBe(false)
    put(path.join(worktree, '.codenomad/design/a.png'))
    put(path.join(main, '.codenomad/design/b.png'))
    expect(untracked(worktree)).toEqual([])
    expect(untracked(main)).toEqual([])
    expect(await excludeDesignDir(main, git, locks)).toMatchObject({ status: 'present' })
  })

  it.each([
    ['a final \\r', '.codenomad/design/\r\n'],
    ['trailing spaces', '.codenomad/design/   \n'],
    ['trailing spaces and \\r, last line without a break', '*.log\n.codenomad/design/  \r'],
  ])('adds nothing when an equivalent line has %s (and git does read it so)', async (_name, existing) => {
    const dir = repo()
    const exclude = path.join(dir, '.git/info/exclude')
    fs.writeFileSync(exclude, existing)
    expect(ignored(dir, '.codenomad/design/a.png')).toBe(true)
    expect(await excludeDesignDir(dir, git, locks)).toMatchObject({ status: 'present' })
    expect(fs.readFileSync(exclude, 'utf8')).toBe(existing)
  })

  it.each([
    ['leading whitespace', '  .codenomad/design/\n'],
    ['an escaped trailing space', '.codenomad/design/\\ \n'],
  ])('treats a line with %s as another pattern, as git does', async (_name, existing) => {
    const dir = repo()
    const exclude = path.join(dir, '.git/info/exclude')
    fs.writeFileSync(exclude, existing)
    expect(ignored(dir, '.codenomad/design/a.png')).toBe(false)
    expect(await excludeDesignDir(dir, git, locks)).toMatchObject({ status: 'added' })
    expect(fs.readFileSync(exclude, 'utf8')).toBe(`${existing}# codenomad\n.codenomad/design/\n`)
    expect(ignored(dir, '.codenomad/design/a.png')).toBe(true)
  })

  it('appends after a last line without a line break, in the file\'s CRLF style, keeping every byte', async () => {
    const dir = repo()
    const exclude = path.join(dir, '.git/info/exclude')
    fs.writeFileSync(exclude, '*.log\r\n*.tmp')
    await excludeDesignDir(dir, git, locks)
    expect(fs.readFileSync(exclude, 'utf8')).toBe('*.log\r\n*.tmp\r\n# codenomad\r\n.codenomad/design/\r\n')
    expect(ignored(dir, 'a.tmp')).toBe(true)
    expect(ignored(dir, '.codenomad/design/a.png')).toBe(true)
  })

  it('creates info/exclude when the repository has none', async () => {
    const dir = repo()
    fs.rmSync(path.join(dir, '.git/info'), { recursive: true })
    expect(await excludeDesignDir(dir, git, locks)).toMatchObject({ status: 'added' })
    expect(fs.readFileSync(path.join(dir, '.git/info/exclude'), 'utf8')).toBe('# codenomad\n.codenomad/design/\n')
  })

  it('adds each rule once when locations of one repository are excluded concurrently', async () => {
    const dir = repo()
    fs.mkdirSync(path.join(dir, 'sub'))
    const answers = await Promise.all([dir, path.join(dir, 'sub'), dir, path.join(dir, 'sub'), dir].map((d) => excludeDesignDir(d, git, locks)))
    expect(answers.filter((a) => a.status === 'added')).toHaveLength(2)
    expect(fs.readFileSync(path.join(dir, '.git/info/exclude'), 'utf8').match(/design\/$/gm)).toHaveLength(2)
  })

  it('answers not-repository, writing nothing, outside any repository', async () => {
    const plain = path.join(root, 'plain')
    fs.mkdirSync(plain)
    expect(await excludeDesignDir(plain, git, locks)).toEqual({ status: 'not-repository' })
    expect(fs.readdirSync(plain)).toEqual([])
  })

  it('answers unavailable for a .git pointer that leads nowhere', async () => {
    const broken = path.join(root, 'broken')
    fs.mkdirSync(broken)
    fs.writeFileSync(path.join(broken, '.git'), `gitdir: ${path.join(root, 'nowhere')}\n`)
    const answer = await excludeDesignDir(broken, git, locks)
    expect(answer).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('not a git repository: ') })
    expect(fs.existsSync(path.join(root, 'nowhere'))).toBe(false)
  })

  it('answers unavailable, writing nothing, when git is not on PATH', async () => {
    const dir = repo()
    const exclude = path.join(dir, '.git/info/exclude')
    const before = fs.readFileSync(exclude)
    const answer = await excludeDesignDir(dir, { ...git, env: { ...git.env, PATH: path.join(root, 'empty-bin') } }, locks)
    expect(answer).toEqual({ status: 'unavailable', reason: 'git is not installed (not found on PATH).' })
    expect(fs.readFileSync(exclude).equals(before)).toBe(true)
  })

  it('answers unavailable when the location was removed meanwhile', async () => {
    const gone = path.join(repo(), 'gone')
    expect(await excludeDesignDir(gone, git, locks)).toEqual({ status: 'unavailable', reason: `${gone} no longer exists.` })
  })
})

import type { PromptTurn, StepSpec, ToolSpec, UserPartSpec } from './demo-spec.js'
import { bigDataFile, buildRun, gitLog, listDirectory, outputBytes, testRun } from './demo-logs.js'
import { editFile, globFiles, grepFiles, readFile, readImage, readMissing, runBash, runTask, writeFile, writeTodos, type TodoStatus, type Workspace } from './demo-tool-specs.js'
import type { DemoImage } from './png.js'
import type { BugDef, FeatureDef, ProjectDef, QuestionDef } from './projects/types.js'
import type { Random } from './random.js'

export interface ScenarioContext {
  project: ProjectDef
  ws: Workspace
  random: Random
  /** Images in the repository, by path, and screenshots a user might paste. */
  repoImages: Map<string, DemoImage>
  pasted: DemoImage[]
}

export interface ScenarioResult {
  title: string
  turns: PromptTurn[]
}

export function prompt(c: ScenarioContext, parts: UserPartSpec[] | string, steps: StepSpec[], agent = 'build'): PromptTurn {
  const userParts = typeof parts === 'string' ? [{ type: 'text' as const, text: parts }] : parts
  return { kind: 'prompt', agent, parts: userParts, steps, thinkMs: Math.round(c.random.logUniform(8_000, 420_000)) }
}

const EXT: Record<ProjectDef['test']['style'], string> = { vitest: 'ts', cargo: 'rs', node: 'js' }

function tests(c: ScenarioContext, failure?: BugDef, bytes = outputBytes(c.random)): ToolSpec {
  const run = testRun(c.project, c.ws.root, c.random, bytes, failure)
  const description = failure ? 'Run the test suite to reproduce the failure' : 'Run the test suite'
  return runBash(c.ws, c.project.test.command, description, run.output, run.exit, c.random.int(1_500, 40_000))
}

export function tour(c: ScenarioContext): ScenarioResult {
  const manifest = ['package.json', 'Cargo.toml'].find((f) => c.ws.files.has(f)) ?? 'README.md'
  const ext = EXT[c.project.test.style]
  const sources = [...c.ws.files.keys()].filter((f) => f.startsWith('src/'))
  const overview = sources.map((f) => `- \`${f}\` — ${c.ws.files.get(f)?.split('\n').length ?? 0} lines`).join('\n')
  return {
    title: c.random.pick(['Repository tour', 'Walk through the codebase', 'Project overview']),
    turns: [prompt(c, c.random.pick(['Give me a quick tour of this repository: what does it do and how is it laid out?', 'I just cloned this repo. Walk me through the code structure.', 'Summarize what this project does and where the main logic lives.']), [
      { reasoning: 'The user wants an overview. I should list the files, find the sources, then read the README and the manifest.', text: "I'll start by looking at the layout of the project.", tools: [runBash(c.ws, 'ls -la', 'List the repository root', listDirectory(c.ws.root, c.ws.files.keys(), c.random)), globFiles(c.ws, `**/*.${ext}`)] },
      { text: 'Let me read the README and the manifest.', tools: [readFile(c.ws, 'README.md'), readFile(c.ws, manifest)] },
      { tools: [grepFiles(c.ws, c.project.test.style === 'cargo' ? 'pub fn' : 'export (async )?function')] },
      { reasoning: 'I have enough to describe the structure: entry points, the core modules and the tests.', text: `## Overview\n\n${(c.ws.files.get('README.md') ?? '').split('\n').find((l) => l && !l.startsWith('#')) ?? ''}\n\n### Source files\n\n${overview}\n\n### Tests\n\nRun \`${c.project.test.command}\`; the tests live next to the code they cover.` },
    ])],
  }
}

export function bugfix(c: ScenarioContext, bug: BugDef, bigLog = false): ScenarioResult {
  const symbol = bug.oldString.match(/[A-Za-z_]\w{3,}/)?.[0] ?? bug.file
  const steps: StepSpec[] = [
    { reasoning: 'Let me reproduce the failure first so I can see the exact assertion.', tools: [tests(c, bug, bigLog ? Math.round(c.random.logUniform(20_000, 160_000)) : undefined)] },
    { text: `The failing test is \`${bug.test}\`. Let me look at \`${bug.file}\`.`, tools: [readFile(c.ws, bug.file)] },
  ]
  if (c.random.chance(0.6)) steps.push({ tools: [grepFiles(c.ws, symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))] })
  steps.push({ reasoning: bug.reasoning, tools: [editFile(c.ws, bug.file, bug.oldString, bug.newString)] })
  steps.push({ text: 'Now re-running the tests.', tools: [tests(c)] })
  steps.push({ text: bug.answer })
  return { title: bug.title, turns: [prompt(c, bug.prompt, steps)] }
}

const todoList = (f: FeatureDef, states: [TodoStatus, TodoStatus, TodoStatus]) =>
  f.todos.map((content, i) => ({ content, status: states[i] as TodoStatus, priority: ['high', 'medium', 'low'][i] as string }))

export function feature(c: ScenarioContext, f: FeatureDef): ScenarioResult {
  const target = f.edits[0]?.file ?? f.newFile.path
  const first = prompt(c, f.prompt, [
    { tools: [writeTodos(c.ws, todoList(f, ['in_progress', 'pending', 'pending']))] },
    { text: `Let me look at \`${target}\` first.`, tools: [readFile(c.ws, target)] },
    { text: `Creating \`${f.newFile.path}\`.`, tools: [writeFile(c.ws, f.newFile.path, f.newFile.content)] },
    { reasoning: `Now wire it in from ${target}; keep the change minimal.`, tools: f.edits.map((e) => editFile(c.ws, e.file, e.oldString, e.newString)) },
    { tools: [writeTodos(c.ws, todoList(f, ['completed', 'completed', 'in_progress'])), tests(c)] },
    { tools: [writeTodos(c.ws, todoList(f, ['completed', 'completed', 'completed']))] },
    { text: f.answer },
  ])
  const second = prompt(c, f.followUp.prompt, [
    { tools: [writeFile(c.ws, f.followUp.testFile.path, f.followUp.testFile.content)] },
    { tools: [tests(c)] },
    { text: f.followUp.answer },
  ])
  return { title: f.title, turns: [first, second] }
}

export function question(c: ScenarioContext, q: QuestionDef): ScenarioResult {
  const steps: StepSpec[] = [{ reasoning: 'I should read the relevant code before answering.', tools: q.reads.map((f) => readFile(c.ws, f)) }]
  if (q.grep) steps.push({ tools: [grepFiles(c.ws, q.grep)] })
  steps.push({ text: q.answer })
  return { title: q.title, turns: [prompt(c, q.prompt, steps)] }
}

const IMAGE_TALK: Record<DemoImage['kind'], { ask: (path: string) => string; answer: (path: string, source: string) => string }> = {
  screenshot: {
    ask: (path) => `This is what the page looks like on my phone. Compare it with ${path} — the highlighted row looks wrong.`,
    answer: (path, source) => `The reference \`${path}\` and your screenshot match except for the highlighted row: it gets the error background. In \`${source}\` that style is applied whenever the item fails validation, so the row is being flagged rather than mis-rendered. Can you share the data behind that row?`,
  },
  diagram: {
    ask: (path) => `I sketched how I think requests flow (attached). Does it match ${path}?`,
    answer: (path, source) => `Mostly. \`${path}\` has the same boxes, but your sketch skips the middle step: \`${source}\` hands the request to it before anything reaches storage. Everything else lines up.`,
  },
  chart: {
    ask: (path) => `Here are my local benchmark numbers as a chart. Are they in line with ${path}?`,
    answer: (path) => `They are within noise of \`${path}\` for the small cases; the largest bar is about 15% slower on your machine, which fits a laptop on battery. I would not read a regression into it.`,
  },
  photo: {
    ask: (path) => `The output I get (attached) has visible banding. The reference is ${path}. What am I looking at?`,
    answer: (path, source) => `Compared with \`${path}\`, your output shows stair-stepping along the edges: that is nearest-neighbour sampling, not bilinear. Check that the filter argument reaches \`${source}\` — the default there is \`Nearest\`.`,
  },
}

/** A pasted screenshot (a `file` part with a data: URL) and a `read` of a PNG in the repo (attachments). */
export function imageReview(c: ScenarioContext): ScenarioResult {
  const [path, repoImage] = [...c.repoImages].find(([p]) => c.ws.files.has(p)) ?? [...c.repoImages][0] ?? []
  const pasted = c.random.pick(c.pasted)
  if (!path || !repoImage) throw new Error(`${c.project.key} has no images`)
  const talk = IMAGE_TALK[repoImage.kind]
  const parts: UserPartSpec[] = [{ type: 'text', text: talk.ask(path) }, { type: 'file', mime: 'image/png', filename: pasted.name, url: pasted.dataUrl }]
  const source = [...c.ws.files.keys()].find((f) => /\.(tsx|rs|ts|js)$/.test(f) && f.startsWith('src/')) ?? 'README.md'
  return {
    title: c.random.pick(['Compare with the reference image', 'Screenshot vs reference image', 'Check the attached image']),
    turns: [prompt(c, parts, [
      { reasoning: `I need to look at ${path} in the repository to compare it with the attached image.`, tools: [readImage(c.ws, path, repoImage.dataUrl)] },
      { text: 'Let me check the code involved.', tools: [readFile(c.ws, source)] },
      { text: talk.answer(path, source) },
    ])],
  }
}

export function explore(c: ScenarioContext): ScenarioResult {
  const e = c.project.explore
  const child = {
    description: e.description, agent: 'explore', prompt: e.prompt, result: e.result,
    steps: [{ tools: [grepFiles(c.ws, e.pattern)] }, { tools: e.reads.map((f) => readFile(c.ws, f)) }, { text: e.result }],
  }
  return {
    title: e.title,
    turns: [prompt(c, e.userPrompt, [
      { text: "I'll have a subagent map this out so the search doesn't fill our context.", tools: [runTask(c.ws, child)] },
      { text: e.answer },
    ])],
  }
}

/** Things going wrong: a missing file (tool error), an empty glob, a failing command. */
export function errors(c: ScenarioContext): ScenarioResult {
  const missing = c.random.pick(['src/config.ts', 'src/settings.rs', 'config/default.json', 'src/env.js'])
  return {
    title: c.random.pick(['Config loader startup error', 'Missing settings file']),
    turns: [prompt(c, `The config loader in ${missing} throws on startup. Can you look at it?`, [
      { tools: [readMissing(c.ws, missing)] },
      { reasoning: 'The file does not exist. Let me look for anything config-related and try running the project.', tools: [globFiles(c.ws, '**/*config*'), runBash(c.ws, `${c.project.test.style === 'cargo' ? 'cargo run' : 'npm start'} -- --check-config`, 'Start with config validation', `error: unknown option '--check-config'\n${c.project.test.style === 'cargo' ? 'error: process didn\'t exit successfully (exit status: 2)' : 'npm ERR! code 2'}\n`, 2)] },
      { text: `There is no \`${missing}\` in this repository, and nothing config-related matches. Starting with \`--check-config\` fails because that flag does not exist. Could you share the exact error and the command you ran?` },
    ])],
  }
}

/** The plan agent, with an @-mentioned file: a `file://` part plus two synthetic text parts (§6.2). */
export function plan(c: ScenarioContext): ScenarioResult {
  const p = c.project.plan
  const mention = `@${p.file}`
  const at = p.prompt.indexOf(mention)
  const read = readFile(c.ws, p.file)
  const parts: UserPartSpec[] = [
    { type: 'text', text: p.prompt },
    { type: 'text', synthetic: true, text: `Called the Read tool with the following input: ${JSON.stringify({ filePath: `${c.ws.root}/${p.file}` })}` },
    { type: 'text', synthetic: true, text: read.output ?? '' },
    { type: 'file', mime: 'text/plain', filename: p.file, url: `file://${c.ws.root}/${p.file}`, source: { text: { value: mention, start: at, end: at + mention.length }, type: 'file', path: p.file } },
  ]
  return {
    title: p.title,
    turns: [prompt(c, parts, [{ tools: [readFile(c.ws, p.file), grepFiles(c.ws, p.grep)] }, { reasoning: p.reasoning, text: p.answer }], 'plan')],
  }
}

/** History digging with big outputs: `git log --stat`, a large fixture read, a build. */
export function inspect(c: ScenarioContext): ScenarioResult {
  // 1.18.33's read stops at 2000 lines / 50 KB, so reads stay below that; bash carries the bigger tail.
  const big = bigDataFile(c.project, c.random, Math.min(45_000, Math.max(3_000, outputBytes(c.random) * 2)))
  c.ws.files.set(big.path, big.content)
  const files = [...c.ws.files.keys()]
  return {
    title: c.random.pick(['Why did the build get slower', 'Check recorded fixtures', 'Review recent changes']),
    turns: [prompt(c, `The fixture ${big.path} was re-recorded last week and since then things feel off. Can you check what changed recently and whether the fixture looks sane?`, [
      { tools: [runBash(c.ws, 'git log --stat -n 200', 'Show recent history with file stats', gitLog(c.project, c.random, outputBytes(c.random), files))] },
      { text: 'Let me look at the fixture itself.', tools: [readFile(c.ws, big.path)] },
      { tools: [runBash(c.ws, c.project.build.command, 'Build to compare timings', buildRun(c.project, c.random, outputBytes(c.random)), 0, c.random.int(4_000, 90_000))] },
      { text: `The fixture has ${big.content.split('\n').length - 3} records and parses fine; about ${c.random.int(5, 15)}% have \`"ok": false\`, which matches the last recording. Nothing in the recent history touches the loader, so the slowdown is more likely the fixture's size (${Math.round(big.content.length / 1024)} KB) than a code change. I'd trim it to the cases the tests actually assert on.` },
    ])],
  }
}

export function ciFailure(c: ScenarioContext, bug: BugDef): ScenarioResult {
  const result = bugfix(c, bug, true)
  const turn = result.turns[0] as PromptTurn
  turn.parts = [{ type: 'text', text: `CI is red on main. Here's the failing job's summary: "${bug.test}" fails. Can you reproduce it locally and fix it?` }]
  return { title: `CI: ${bug.title.toLowerCase()}`, turns: [turn] }
}

export function interrupted(c: ScenarioContext, random: Random): ScenarioResult {
  const long = runBash(c.ws, `${c.project.test.command} -- --watch`, 'Run tests in watch mode', '')
  long.status = 'error'
  long.error = 'Tool execution aborted'
  return {
    title: 'Watch mode run (interrupted)',
    turns: [prompt(c, 'Run the tests in watch mode and tell me when something fails.', [
      { text: 'Starting the test runner in watch mode.', tools: [long], finish: 'error', error: { name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } } },
    ]), prompt(c, random.pick(['Never mind, just run them once.', 'Stop that — a single run is enough.']), [{ tools: [tests(c)] }, { text: 'All tests pass on a single run.' }])],
  }
}

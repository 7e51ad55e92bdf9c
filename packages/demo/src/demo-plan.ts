import type { DemoProjectRef, ModelRef, SessionSpec, TurnSpec } from './demo-spec.js'
import { GLOBAL_DIRECTORIES, GLOBAL_SCENARIOS } from './demo-global.js'
import { bugfix, ciFailure, errors, explore, feature, imageReview, inspect, interrupted, plan, question, tour, type ScenarioContext, type ScenarioResult } from './demo-scenarios.js'
import { summarizeTranscript } from './demo-summary.js'
import { DEMO_MODELS } from './demo-usage.js'
import { paintDemoImage, type DemoImage } from './png.js'
import { harbor } from './projects/harbor.js'
import { notesWeb } from './projects/notes-web.js'
import { pixelkit } from './projects/pixelkit.js'
import { tally } from './projects/tally.js'
import type { ProjectDef } from './projects/types.js'
import type { Random } from './random.js'

export interface DemoProject {
  def: ProjectDef
  ref: DemoProjectRef
  images: Map<string, DemoImage>
}

/** The machine the demo history happened on: its repositories, home directory and images. */
export interface DemoWorld {
  home: string
  projects: DemoProject[]
  global: DemoProjectRef
  pasted: DemoImage[]
}

const DEFS = [harbor, notesWeb, pixelkit, tally]

export function createWorld(random: Random, home: string): DemoWorld {
  const projects = DEFS.map((def) => ({
    def,
    // The real id is the repository's root commit hash (opencode-storage.md §2.6).
    ref: { id: random.hex(40), worktree: `${home}/code/${def.key}` },
    images: new Map(def.images.map((img) => [img.path, paintDemoImage(random, img.kind, img.path.split('/').pop() ?? img.path, img.width, img.height)])),
  }))
  const sizes: [number, number][] = [[640, 400], [1024, 640], [390, 844], [400, 260], [520, 300]]
  const pasted = sizes.map(([w, h], i) => paintDemoImage(random, i === 3 ? 'photo' : 'screenshot', `screenshot-${i + 1}.png`, w, h))
  return { home, projects, global: { id: 'global', worktree: '/' }, pasted }
}

type Recipe = (c: ScenarioContext) => ScenarioResult[]
interface Plan {
  project: string | 'global'
  recipe: Recipe
  compactAfter?: number
  archived?: boolean
}

const first = <T>(items: readonly T[]): T => {
  if (!items.length) throw new Error('empty demo content list')
  return items[0] as T
}

/** The first sessions cover every shape the demo must show, so even a small demo has them all. */
const FIXED: Plan[] = [
  { project: 'harbor-api', recipe: (c) => [bugfix(c, first(c.project.bugs)), question(c, first(c.project.questions))] },
  { project: 'notes-web', recipe: (c) => [imageReview(c)] },
  { project: 'tally', recipe: (c) => [feature(c, first(c.project.features)), question(c, first(c.project.questions))], compactAfter: 2 },
  { project: 'pixelkit', recipe: (c) => [errors(c)], archived: true },
  { project: 'harbor-api', recipe: (c) => [plan(c)] },
  { project: 'tally', recipe: (c) => [explore(c)] },
  { project: 'global', recipe: (c) => [first(GLOBAL_SCENARIOS)(c)] },
  { project: 'notes-web', recipe: (c) => [ciFailure(c, first(c.project.bugs))] },
  { project: 'pixelkit', recipe: (c) => [bugfix(c, first(c.project.bugs)), inspect(c)] },
  { project: 'harbor-api', recipe: (c) => [interrupted(c, c.random)], archived: true },
]

type Maker = (c: ScenarioContext) => ScenarioResult

/** Scenarios one session can chain; each bug or feature at most once, since edits change the files. */
function makers(c: ScenarioContext): [number, Maker][] {
  const p = c.project
  return [
    ...p.bugs.map((bug): [number, Maker] => [4, (cc) => (cc.random.chance(0.2) ? ciFailure(cc, bug) : bugfix(cc, bug))]),
    ...p.features.map((f): [number, Maker] => [4, (cc) => feature(cc, f)]),
    ...p.questions.map((q): [number, Maker] => [3, (cc) => question(cc, q)]),
    [3, tour], [2, explore], [1, imageReview], [2, plan], [2, inspect], [1, errors], [1, (cc) => interrupted(cc, cc.random)],
  ]
}

function chain(count: number): Recipe {
  return (c) => {
    const pool = makers(c)
    const out: ScenarioResult[] = []
    while (out.length < count && pool.length) {
      const maker = weighted(c.random, pool.map(([w], i): [number, number] => [w, i]))
      out.push((pool[maker] as [number, Maker])[1](c))
      pool.splice(maker, 1)
    }
    return out
  }
}

function weighted<T>(random: Random, items: [number, T][]): T {
  let r = random.next() * items.reduce((n, [w]) => n + w, 0)
  for (const [w, item] of items) if ((r -= w) < 0) return item
  return (items.at(-1) as [number, T])[1]
}

function randomPlan(random: Random): Plan {
  if (random.chance(0.1)) return { project: 'global', recipe: (c) => [random.pick(GLOBAL_SCENARIOS)(c)], archived: random.chance(0.15) }
  const project = random.pick(DEFS).key
  const count = weighted(random, [[3, 1], [4, 2], [3, 3], [2, 4], [1, 6]] as [number, number][])
  const compact = count >= 3 && random.chance(0.4) ? { compactAfter: random.int(1, count - 1) } : {}
  return { project, recipe: chain(count), archived: random.chance(0.08), ...compact }
}

const pickModel = (random: Random): ModelRef =>
  weighted(random, [[6, DEMO_MODELS[0]], [1, DEMO_MODELS[1]], [3, DEMO_MODELS[2]]] as [number, ModelRef][])

/** A manual compaction after `n` prompts, summarising what those prompts did. */
function withCompaction(turns: TurnSpec[], after: number | undefined, random: Random): TurnSpec[] {
  if (after === undefined || turns.length <= after) return turns
  const before = turns.slice(0, after)
  const prompts = before.flatMap((t) => (t.kind === 'prompt' ? t.parts.flatMap((p) => (p.type === 'text' && !p.synthetic ? [p.text] : [])) : []))
  const tools = new Set(before.flatMap((t) => (t.kind === 'prompt' ? t.steps.flatMap((s) => (s.tools ?? []).map((tool) => tool.tool)) : [])))
  const files = new Set(before.flatMap((t) => (t.kind === 'prompt' ? t.steps.flatMap((s) => (s.tools ?? []).flatMap((tool) => (tool.files ?? []).map((f) => f.file))) : [])))
  return [...before, { kind: 'compaction', auto: random.chance(0.3), summary: summarizeTranscript({ prompts, tools, files }) }, ...turns.slice(after)]
}

/** The content of session number `index`: fixed shapes first, then a weighted mix. */
export function planSession(world: DemoWorld, random: Random, index: number): SessionSpec {
  const plan = FIXED[index] ?? randomPlan(random)
  const project = world.projects.find((p) => p.def.key === plan.project)
  const directory = project
    ? `${project.ref.worktree}${random.chance(0.1) ? '/src' : ''}`
    : `${world.home}/${GLOBAL_DIRECTORIES[index % GLOBAL_DIRECTORIES.length]}`
  const def = project?.def ?? harbor
  const files = project ? new Map(Object.entries(def.files)) : new Map<string, string>()
  for (const path of project?.images.keys() ?? []) files.set(path, '(binary)')
  const c: ScenarioContext = {
    project: def,
    ws: { root: project ? project.ref.worktree : directory, files, random },
    random,
    repoImages: project?.images ?? new Map(),
    pasted: world.pasted,
  }
  const results = plan.recipe(c)
  const turns = withCompaction(results.flatMap((r) => r.turns), plan.compactAfter, random)
  return {
    project: project?.ref ?? world.global,
    directory,
    title: first(results).title,
    agent: 'build',
    model: pickModel(random),
    turns,
    ...(plan.archived ? { archived: true } : {}),
  }
}

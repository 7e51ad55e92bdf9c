import type { ProjectDef } from './types.js'

const count = `// Word counting helpers.
export function words(text) {
  return text.toLowerCase().match(/[a-z0-9']+/g) ?? []
}

export function countWords(text) {
  return words(text).length
}

export function topWords(text, n = 5) {
  const freq = new Map()
  for (const w of words(text)) freq.set(w, (freq.get(w) ?? 0) + 1)
  return [...freq].sort((a, b) => b[1] - a[1]).slice(0, n)
}
`

const cli = `#!/usr/bin/env node
import fs from "node:fs"
import { countWords, topWords } from "./count.js"
import { formatTable } from "./format.js"

const [file, flag, n] = process.argv.slice(2)
if (!file) {
  console.error("usage: tally FILE [--top N]")
  process.exit(2)
}
const text = fs.readFileSync(file, "utf8")
console.log("words:", countWords(text))
if (flag === "--top") console.log(formatTable(topWords(text, Number(n) || 5)))
`

export const tally: ProjectDef = {
  key: 'tally',
  files: {
    'README.md': '# tally\n\nA tiny word-count CLI.\n\n    node src/cli.js FILE [--top N]\n\nPrints the total number of words and the N most frequent ones.\n',
    'package.json': JSON.stringify({ name: 'tally', version: '0.1.0', type: 'module', bin: { tally: 'src/cli.js' }, scripts: { test: 'node --test test/' } }, null, 2) + '\n',
    'src/count.js': count,
    'src/format.js': '// Output formatting.\nexport function formatTable(rows) {\n  const width = Math.max(4, ...rows.map(([w]) => w.length))\n  return rows.map(([w, c]) => w.padEnd(width) + "  " + String(c)).join("\\n")\n}\n',
    'src/cli.js': cli,
    'test/count.test.js': 'import test from "node:test"\nimport assert from "node:assert/strict"\nimport { countWords, topWords } from "../src/count.js"\n\ntest("counts words", () => {\n  assert.equal(countWords("a b  c"), 3)\n})\n\ntest("top words break ties alphabetically", () => {\n  assert.deepEqual(topWords("b a", 2), [["a", 1], ["b", 1]])\n})\n',
    'notes/TODO.md': '# TODO\n\n- handle stdin\n- colour output\n',
    '.gitignore': 'node_modules/\n',
  },
  test: { command: 'node --test test/', style: 'node' },
  build: { command: 'npx tsc --noEmit --allowJs --checkJs src/*.js', style: 'tsc' },
  vocabulary: {
    nouns: ['word', 'apostrophe', 'tie', 'table', 'stdin', 'unicode', 'newline', 'top list', 'flag', 'file'],
    verbs: ['counts', 'splits', 'sorts', 'pads', 'ignores', 'reads', 'prints', 'trims', 'merges', 'lowercases'],
  },
  images: [{ path: 'docs/architecture.png', kind: 'diagram', width: 300, height: 120 }],
  bugs: [
    {
      title: 'Top words ties are unstable',
      prompt: 'The tie-break test fails: words with equal counts come out in insertion order. They should be alphabetical.',
      file: 'src/count.js',
      test: 'top words break ties alphabetically',
      failure: "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:\n+ actual - expected\n\n  [\n    [\n+     'b',\n-     'a',\n      1\n    ],",
      reasoning: 'sort((a, b) => b[1] - a[1]) returns 0 for ties, and Array.prototype.sort is stable, so ties keep Map insertion order. Add a secondary key: a[0].localeCompare(b[0]).',
      oldString: '  return [...freq].sort((a, b) => b[1] - a[1]).slice(0, n)',
      newString: '  return [...freq].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n)',
      answer: "Ties returned `0` from the comparator, and since `Array.prototype.sort` is stable they kept the `Map`'s insertion order. Added an alphabetical tie-break:\n\n```js\n.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))\n```\n\n`node --test`: 2/2 pass.",
    },
  ],
  features: [
    {
      title: 'Read from stdin',
      prompt: 'Let tally read from stdin when FILE is `-` or missing and input is piped. Keep the usage error for an interactive terminal.',
      todos: ['Add src/input.js (readInput)', 'Use it in src/cli.js', 'Run the tests'],
      newFile: {
        path: 'src/input.js',
        content: 'import fs from "node:fs"\n\n/** The text to count: the file, or stdin for "-" / no file when stdin is piped. */\nexport function readInput(file, stdin = process.stdin) {\n  if (file && file !== "-") return fs.readFileSync(file, "utf8")\n  if (!file && stdin.isTTY) return null\n  return fs.readFileSync(0, "utf8")\n}\n',
      },
      edits: [
        { file: 'src/cli.js', oldString: 'import fs from "node:fs"\n', newString: 'import { readInput } from "./input.js"\n' },
        {
          file: 'src/cli.js',
          oldString: 'if (!file) {\n  console.error("usage: tally FILE [--top N]")\n  process.exit(2)\n}\nconst text = fs.readFileSync(file, "utf8")',
          newString: 'const text = readInput(file)\nif (text === null) {\n  console.error("usage: tally [FILE|-] [--top N]")\n  process.exit(2)\n}',
        },
      ],
      answer: '`tally` now reads stdin for `-`, or when no file is given and input is piped:\n\n```sh\ncat README.md | node src/cli.js --top 3\nnode src/cli.js - < README.md\n```\n\nAn interactive terminal with no file still prints the usage line and exits with 2.',
      followUp: {
        prompt: 'Add a test that pipes input through the CLI.',
        testFile: {
          path: 'test/cli.test.js',
          content: 'import test from "node:test"\nimport assert from "node:assert/strict"\nimport { execFileSync } from "node:child_process"\n\ntest("reads stdin with -", () => {\n  const out = execFileSync("node", ["src/cli.js", "-"], { input: "a b c" }).toString()\n  assert.match(out, /words: 3/)\n})\n',
        },
        answer: 'Added `test/cli.test.js`, which pipes `a b c` through `node src/cli.js -` and expects `words: 3`. 3/3 tests pass.',
      },
    },
  ],
  questions: [
    {
      title: 'Unicode word splitting',
      prompt: 'Does `words()` handle non-English text? Someone ran it on a French README and the counts looked off.',
      reads: ['src/count.js'],
      answer: "No — `words()` uses `/[a-z0-9']+/g`, so any letter outside ASCII splits a word: `déjà vu` becomes `d`, `j`, `vu`.\n\nUse Unicode property escapes instead:\n\n```js\nexport function words(text) {\n  return text.toLowerCase().match(/[\\p{L}\\p{N}']+/gu) ?? []\n}\n```\n\n- `\\p{L}` — any letter, `\\p{N}` — any digit, `u` flag required\n- `toLowerCase()` is already Unicode-aware\n\nFor languages without spaces (Japanese, Chinese) you'd want `Intl.Segmenter` with `granularity: 'word'`, which Node 16+ ships.",
    },
  ],
  explore: {
    title: 'Find word counting code',
    userPrompt: 'Have a subagent find where words are counted and frequencies computed, then tell me if the CLI and tests agree.',
    description: 'Find word counting code',
    prompt: 'Search the repository for every place where words are counted or word frequencies are computed. Report file paths, function names and line numbers. Research only, do not modify files.',
    pattern: 'countWords|topWords|words\\(',
    reads: ['src/count.js'],
    result: 'Word counting lives in `src/count.js`:\n- `words(text)` (line 2) tokenizes\n- `countWords(text)` (line 6)\n- `topWords(text, n)` (line 10)\n`src/cli.js` calls `countWords` and `topWords`; `test/count.test.js` covers both.',
    answer: 'They agree: `src/cli.js` only calls `countWords` and `topWords` from `src/count.js`, and `test/count.test.js` tests exactly those two. `words()` itself has no direct test — worth adding one for apostrophes.',
  },
  plan: {
    title: 'Plan stdin support',
    file: 'src/cli.js',
    prompt: "Plan (don't implement yet) how to add stdin support to @src/cli.js.",
    grep: 'readFileSync',
    reasoning: "Only cli.js reads input. The change is small: treat a missing FILE or '-' as stdin.",
    answer: "### Plan\n\n1. In `src/cli.js`, treat `FILE` = `-` (or no FILE when stdin is not a TTY) as stdin.\n2. Read it with `fs.readFileSync(0, \"utf8\")`.\n3. Update the usage line and README.\n4. Add a test that spawns the CLI with piped input.\n\nShall I implement it?",
  },
}

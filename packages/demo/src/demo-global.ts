import { outputBytes } from './demo-logs.js'
import { prompt, type ScenarioContext, type ScenarioResult } from './demo-scenarios.js'
import { runBash, writeFile } from './demo-tool-specs.js'

/** Sessions outside any git repository: OpenCode files them under the `global` project. */

function diskUsage(c: ScenarioContext): ScenarioResult {
  const dirs = ['.cache', 'Downloads', 'code', '.local', '.npm', '.cargo', 'Videos', '.docker', 'Pictures', 'snap']
  const du = dirs.map((d) => [c.random.logUniform(0.05, 60), d] as const).sort((a, b) => a[0] - b[0])
  const df = 'Filesystem      Size  Used Avail Use% Mounted on\n/dev/nvme0n1p2  468G  451G   17G  97% /\ntmpfs            16G  2.1M   16G   1% /dev/shm\n'
  const duOut = du.map(([g, d]) => `${g < 1 ? `${Math.round(g * 1024)}M` : `${g.toFixed(1)}G`}\t${c.ws.root}/${d}`).join('\n') + '\n'
  const docker = `TYPE            TOTAL     ACTIVE    SIZE      RECLAIMABLE\nImages          ${c.random.int(20, 90)}        4         ${c.random.int(20, 80)}.${c.random.int(1, 9)}GB    ${c.random.int(15, 70)}.2GB (88%)\nContainers      7         2         1.3GB     1.1GB (84%)\nLocal Volumes   12        3         9.8GB     6.4GB (65%)\nBuild Cache     311       0         14.2GB    14.2GB\n`
  return {
    title: 'Find what is filling the disk',
    turns: [prompt(c, 'My disk is almost full (97%). What is taking the space? Please do not delete anything yet.', [
      { tools: [runBash(c.ws, 'df -h', 'Show free space per filesystem', df), runBash(c.ws, 'du -sh ~/* ~/.[a-z]* 2>/dev/null | sort -h | tail -20', 'Largest directories in the home folder', duOut, 0, c.random.int(3_000, 25_000))] },
      { reasoning: '.docker is large; docker system df will tell how much of it is reclaimable.', tools: [runBash(c.ws, 'docker system df', 'Docker disk usage', docker)] },
      { text: `The biggest consumers are \`${du.at(-1)?.[1]}\` and \`${du.at(-2)?.[1]}\`. Docker alone can give back a lot:\n\n| what | reclaimable | command |\n|---|---|---|\n| build cache | 14.2 GB | \`docker builder prune\` |\n| unused images | most of it | \`docker image prune -a\` |\n| stopped containers | 1.1 GB | \`docker container prune\` |\n\nNothing was deleted. \`~/.cache\` is also safe to clear if you need more, but tools will re-download into it.` },
    ])],
  }
}

function csvSummary(c: ScenarioContext): ScenarioResult {
  const regions = ['north', 'south', 'east', 'west', 'central']
  const rows = Array.from({ length: 6 }, () => `${c.random.int(2024, 2025)}-${String(c.random.int(1, 12)).padStart(2, '0')}-${String(c.random.int(1, 28)).padStart(2, '0')},${c.random.pick(regions)},${c.random.pick(['widget', 'gadget', 'gizmo'])},${c.random.int(1, 40)},${c.random.int(5, 300)}.${c.random.int(10, 99)}`)
  const script = 'import csv\nimport sys\nfrom collections import defaultdict\n\ntotals = defaultdict(float)\ncounts = defaultdict(int)\nwith open(sys.argv[1], newline="") as f:\n    for row in csv.DictReader(f):\n        amount = int(row["qty"]) * float(row["price"])\n        totals[row["region"]] += amount\n        counts[row["region"]] += 1\n\nprint(f"{\'region\':<10}{\'orders\':>8}{\'revenue\':>14}")\nfor region in sorted(totals, key=totals.get, reverse=True):\n    print(f"{region:<10}{counts[region]:>8}{totals[region]:>14,.2f}")\n'
  const table = regions.map((r) => `${r.padEnd(10)}${String(c.random.int(300, 2000)).padStart(8)}${c.random.int(10_000, 900_000).toLocaleString('en-US').padStart(11)}.${c.random.int(10, 99)}`).join('\n')
  return {
    title: 'Summarize sales CSV by region',
    turns: [prompt(c, 'I have sales.csv in this folder (date, region, product, qty, price). Give me revenue and order count per region.', [
      { tools: [runBash(c.ws, 'head -7 sales.csv && wc -l sales.csv', 'Peek at the CSV', `date,region,product,qty,price\n${rows.join('\n')}\n${c.random.int(4_000, 90_000)} sales.csv\n`)] },
      { text: "I'll write a small script so you can re-run it later.", tools: [writeFile(c.ws, 'summarize.py', script)] },
      { tools: [runBash(c.ws, 'python3 summarize.py sales.csv', 'Summarize by region', `region      orders       revenue\n${table}\n`)] },
      { text: `Here you go (sorted by revenue):\n\n\`\`\`\nregion      orders       revenue\n${table}\n\`\`\`\n\nThe script is \`summarize.py\`; run \`python3 summarize.py other.csv\` for another export.` },
    ])],
  }
}

function logTriage(c: ScenarioContext): ScenarioResult {
  const ips = Array.from({ length: 40 }, () => `${c.random.int(10, 220)}.${c.random.int(0, 255)}.${c.random.int(0, 255)}.${c.random.int(1, 254)}`)
  const lines: string[] = []
  for (let size = 0, bytes = outputBytes(c.random) * 2; size < bytes; ) {
    const l = `${c.random.pick(ips)} - - [${String(c.random.int(1, 28)).padStart(2, '0')}/Nov/2025:${String(c.random.int(0, 23)).padStart(2, '0')}:${String(c.random.int(0, 59)).padStart(2, '0')}:${String(c.random.int(0, 59)).padStart(2, '0')} +0000] "${c.random.pick(['GET', 'POST'])} ${c.random.pick(['/api/notes', '/api/login', '/static/app.js', '/api/sync', '/healthz'])} HTTP/1.1" ${c.random.pick(['200', '200', '200', '502', '504', '304'])} ${c.random.int(0, 90_000)} "-" "Mozilla/5.0"`
    lines.push(l)
    size += l.length + 1
  }
  const errors = `${c.random.int(20, 400)} upstream timed out (110: Connection timed out) while reading response header from upstream, upstream: "http://127.0.0.1:3000/api/sync"\n`.repeat(c.random.int(3, 12))
  return {
    title: 'Triage nginx 502s',
    turns: [prompt(c, 'nginx started returning 502s this morning. The logs are in ./logs (access.log, error.log). What is going on?', [
      { tools: [runBash(c.ws, "grep -E '\" (502|504) ' logs/access.log | tail -n 2000", 'Recent 5xx responses', lines.join('\n') + '\n', 0, c.random.int(400, 3_000))] },
      { reasoning: 'Almost all failures hit /api/sync. The error log should say whether the upstream is down or slow.', tools: [runBash(c.ws, 'tail -n 50 logs/error.log', 'Last nginx errors', errors)] },
      { text: 'The 502/504s are almost all on `/api/sync`, and `error.log` shows **upstream timeouts** (`110: Connection timed out`), not refused connections — so the app on `127.0.0.1:3000` is up but too slow on that route.\n\nNext steps:\n1. check the app logs for `/api/sync` around the first error\n2. temporarily raise `proxy_read_timeout` for that location only\n3. look for a missing index or lock on whatever `/api/sync` queries' },
    ])],
  }
}

export const GLOBAL_SCENARIOS = [diskUsage, csvSummary, logTriage] as const

/** Scratch folders outside git; each global scenario runs in one of them. */
export const GLOBAL_DIRECTORIES = ['Downloads', 'scratch', 'ops/nginx'] as const

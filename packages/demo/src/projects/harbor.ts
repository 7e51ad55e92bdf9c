import type { ProjectDef } from './types.js'

const pagination = `import { z } from 'zod'

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
})

export type PageQuery = z.infer<typeof pageQuery>

/** Keyset pagination: the cursor is the last row's (created_at, id), base64url-encoded. */
export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url')
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    return { createdAt: new Date(createdAt), id }
  } catch {
    return null
  }
}

export function nextCursor<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): string | null {
  if (rows.length < limit) return null
  const last = rows[rows.length - 1]
  return last ? encodeCursor(last.createdAt, last.id) : null
}
`

const users = `import type { FastifyInstance } from 'fastify'
import { pageQuery, decodeCursor, nextCursor } from '../lib/pagination.js'
import { listUsers, findUser, createUser } from '../db/users.js'
import { newUserBody } from '../schemas/user.js'

export async function userRoutes(app: FastifyInstance) {
  app.get('/users', async (req, reply) => {
    const query = pageQuery.parse(req.query)
    const after = query.cursor ? decodeCursor(query.cursor) : null
    if (query.cursor && !after) return reply.code(400).send({ error: 'invalid_cursor' })
    const rows = await listUsers(app.db, { limit: query.limit, after })
    return { items: rows, next: nextCursor(rows, query.limit) }
  })

  app.get<{ Params: { id: string } }>('/users/:id', async (req, reply) => {
    const user = await findUser(app.db, req.params.id)
    if (!user) return reply.code(404).send({ error: 'not_found' })
    return user
  })

  app.post('/users', async (req, reply) => {
    const body = newUserBody.parse(req.body)
    const user = await createUser(app.db, body)
    return reply.code(201).send(user)
  })
}
`

const dbUsers = `import type { Pool } from 'pg'

export interface User {
  id: string
  email: string
  name: string
  createdAt: Date
}

const columns = 'id, email, name, created_at AS "createdAt"'

export async function listUsers(db: Pool, opts: { limit: number; after: { createdAt: Date; id: string } | null }): Promise<User[]> {
  if (!opts.after) {
    const { rows } = await db.query(\`SELECT \${columns} FROM users ORDER BY created_at, id LIMIT $1\`, [opts.limit])
    return rows
  }
  const { rows } = await db.query(
    \`SELECT \${columns} FROM users WHERE (created_at, id) >= ($1, $2) ORDER BY created_at, id LIMIT $3\`,
    [opts.after.createdAt, opts.after.id, opts.limit],
  )
  return rows
}

export async function findUser(db: Pool, id: string): Promise<User | undefined> {
  const { rows } = await db.query(\`SELECT \${columns} FROM users WHERE id = $1\`, [id])
  return rows[0]
}

export async function createUser(db: Pool, input: { email: string; name: string }): Promise<User> {
  const { rows } = await db.query(
    \`INSERT INTO users (email, name) VALUES (lower($1), $2) RETURNING \${columns}\`,
    [input.email, input.name],
  )
  return rows[0]
}
`

const jwt = `import { createHmac, timingSafeEqual } from 'node:crypto'

export interface Claims {
  sub: string
  exp: number
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

export function sign(claims: Claims, secret: string): string {
  const body = \`\${b64({ alg: 'HS256', typ: 'JWT' })}.\${b64(claims)}\`
  const mac = createHmac('sha256', secret).update(body).digest('base64url')
  return \`\${body}.\${mac}\`
}

export function verify(token: string, secret: string, now = Date.now()): Claims | null {
  const [header, payload, mac] = token.split('.')
  if (!header || !payload || !mac) return null
  const expected = createHmac('sha256', secret).update(\`\${header}.\${payload}\`).digest()
  const given = Buffer.from(mac, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims
  if (claims.exp * 1000 < now - 300_000) return null
  return claims
}
`

const server = `import Fastify from 'fastify'
import { Pool } from 'pg'
import { userRoutes } from './routes/users.js'
import { healthRoutes } from './routes/health.js'

export function buildServer(databaseUrl: string) {
  const app = Fastify({ logger: true })
  app.decorate('db', new Pool({ connectionString: databaseUrl, max: 10 }))
  app.register(healthRoutes)
  app.register(userRoutes, { prefix: '/v1' })
  app.addHook('onClose', async () => app.db.end())
  return app
}
`

const usersTest = `import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { buildServer } from '../src/server.js'
import { resetDatabase, seedUsers } from './helpers.js'

const app = buildServer(process.env.TEST_DATABASE_URL ?? 'postgres://localhost/harbor_test')

beforeAll(async () => {
  await resetDatabase(app.db)
  await seedUsers(app.db, 45)
})
afterAll(() => app.close())

describe('GET /v1/users', () => {
  it('pages through every user exactly once', async () => {
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const res = await app.inject({ url: '/v1/users', query: { limit: '20', ...(cursor ? { cursor } : {}) } })
      const body = res.json()
      ids.push(...body.items.map((u: { id: string }) => u.id))
      cursor = body.next
    } while (cursor)
    expect(ids).toHaveLength(45)
    expect(new Set(ids).size).toBe(45)
  })

  it('rejects a tampered cursor', async () => {
    const res = await app.inject({ url: '/v1/users', query: { cursor: 'not-base64' } })
    expect(res.statusCode).toBe(400)
  })
})
`

export const harbor: ProjectDef = {
  key: 'harbor-api',
  files: {
    'README.md': '# harbor-api\n\nThe account service behind Harbor: users, sessions and API keys.\n\n```sh\nnpm run dev        # http://localhost:3000\nnpm test           # needs TEST_DATABASE_URL\n```\n',
    'package.json': JSON.stringify({ name: 'harbor-api', private: true, type: 'module', scripts: { dev: 'tsx watch src/main.ts', build: 'tsc -p .', test: 'vitest run' }, dependencies: { fastify: '^5.2.0', pg: '^8.13.1', zod: '^3.24.1' }, devDependencies: { typescript: '^5.7.2', vitest: '^2.1.8', tsx: '^4.19.2' } }, null, 2) + '\n',
    'tsconfig.json': '{\n  "compilerOptions": { "target": "ES2022", "module": "NodeNext", "strict": true, "outDir": "dist" },\n  "include": ["src"]\n}\n',
    'src/server.ts': server,
    'src/main.ts': "import { buildServer } from './server.js'\n\nconst app = buildServer(process.env.DATABASE_URL ?? 'postgres://localhost/harbor')\nawait app.listen({ port: Number(process.env.PORT ?? 3000), host: '0.0.0.0' })\n",
    'src/routes/users.ts': users,
    'src/routes/health.ts': "import type { FastifyInstance } from 'fastify'\n\nexport async function healthRoutes(app: FastifyInstance) {\n  app.get('/healthz', async () => ({ ok: true }))\n}\n",
    'src/db/users.ts': dbUsers,
    'src/lib/pagination.ts': pagination,
    'src/auth/jwt.ts': jwt,
    'src/schemas/user.ts': "import { z } from 'zod'\n\nexport const newUserBody = z.object({\n  email: z.string().email(),\n  name: z.string().min(1).max(120),\n})\n",
    'test/users.test.ts': usersTest,
    'test/helpers.ts': "import type { Pool } from 'pg'\n\nexport async function resetDatabase(db: Pool) {\n  await db.query('TRUNCATE users RESTART IDENTITY CASCADE')\n}\n\nexport async function seedUsers(db: Pool, n: number) {\n  for (let i = 0; i < n; i++) {\n    await db.query('INSERT INTO users (email, name, created_at) VALUES ($1, $2, $3)', [`user${i}@example.com`, `User ${i}`, new Date(Date.UTC(2024, 0, 1, 0, 0, Math.floor(i / 3)))])\n  }\n}\n",
    'migrations/001_users.sql': 'CREATE TABLE users (\n  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),\n  email text NOT NULL UNIQUE,\n  name text NOT NULL,\n  created_at timestamptz NOT NULL DEFAULT now()\n);\nCREATE INDEX users_created_at_id_idx ON users (created_at, id);\n',
  },
  test: { command: 'npm test', style: 'vitest' },
  build: { command: 'npm run build', style: 'tsc' },
  vocabulary: {
    nouns: ['user', 'session', 'api key', 'cursor', 'token', 'email', 'page', 'invite', 'role', 'audit entry', 'webhook', 'rate limit'],
    verbs: ['creates', 'lists', 'rejects', 'revokes', 'paginates', 'refreshes', 'validates', 'expires', 'hashes', 'deduplicates'],
  },
  images: [{ path: 'docs/request-flow.png', kind: 'diagram', width: 420, height: 160 }],
  bugs: [
    {
      title: 'Fix duplicate users across pages',
      prompt: 'The users endpoint returns some users twice when paging — the "pages through every user exactly once" test is failing. Can you find out why and fix it?',
      file: 'src/db/users.ts',
      test: 'GET /v1/users > pages through every user exactly once',
      failure: "AssertionError: expected [ '0b5c…', …(46) ] to have a length of 45 but got 47\n\n- Expected\n+ Received\n\n- 45\n+ 47\n\n ❯ test/users.test.ts:27:17",
      reasoning: 'Two extra rows over three pages: exactly one duplicate per page after the first. That points at the page boundary. The cursor is the last row of the page, and the next query must start strictly after it. listUsers compares the tuple with >=, so the boundary row comes back as the first row of the next page.',
      oldString: 'WHERE (created_at, id) >= ($1, $2) ORDER BY created_at, id LIMIT $3',
      newString: 'WHERE (created_at, id) > ($1, $2) ORDER BY created_at, id LIMIT $3',
      answer: "## What was wrong\n\nEvery page after the first started with the **last row of the previous page**. The cursor is that row's `(created_at, id)`, and `listUsers` asked for rows `>=` it:\n\n```sql\nWHERE (created_at, id) >= ($1, $2)   -- boundary row included again\n```\n\n45 users at 20 per page is three pages, so two duplicates: `47` instead of `45`.\n\n## The fix\n\n```sql\nWHERE (created_at, id) > ($1, $2)\n```\n\nThe `id` tie-breaker still matters: the seed creates three users per second, and the tuple comparison keeps those in a stable order. `npm test` passes again. The test now also checks the raw count, not just the set of ids — the old `Set` version could never have caught this.",
    },
    {
      title: 'JWT verify accepts expired tokens',
      prompt: 'Security review flagged that `verify()` in src/auth/jwt.ts accepts tokens that expired minutes ago. Please fix the expiry check; a clock-skew allowance of 30 s is fine, more is not.',
      file: 'src/auth/jwt.ts',
      test: 'jwt > rejects a token that expired one minute ago',
      failure: "AssertionError: expected { sub: 'u_1', exp: 1735689599 } to be null\n\n ❯ test/jwt.test.ts:18:41",
      reasoning: 'The check subtracts 300_000 ms from now before comparing, so any token expired less than five minutes ago still verifies. Also `<` lets a token through at exactly exp. Expired means now >= exp*1000; with a 30 s allowance that becomes now - 30_000 >= exp*1000.',
      oldString: '  if (claims.exp * 1000 < now - 300_000) return null',
      newString: '  // Expired at exp; allow 30 s of clock skew between issuer and verifier, never more.\n  const SKEW_MS = 30_000\n  if (now - SKEW_MS >= claims.exp * 1000) return null',
      answer: "Confirmed: the check was `claims.exp * 1000 < now - 300_000` — a **five-minute** grace period, and `<` also let a token through at exactly `exp`.\n\nNow:\n\n```ts\nconst SKEW_MS = 30_000\nif (now - SKEW_MS >= claims.exp * 1000) return null\n```\n\n- a token is rejected from `exp` onwards, with 30 s of tolerance for clock skew\n- the signature is still checked first with `timingSafeEqual`, so no claims are parsed from a forged token\n\nAll tests pass. I'd also suggest rejecting tokens with `exp` more than 24 h in the future, but I left that out since it changes behaviour for the CLI's long-lived tokens.",
    },
  ],
  features: [
    {
      title: 'Add API key authentication',
      prompt: 'Add API-key auth for service-to-service calls: keys are sent as `Authorization: Bearer hk_...`, stored hashed, and checked by a Fastify preHandler on the /v1 routes. Keep it small.',
      todos: ['Add src/auth/api-keys.ts (hash + verify)', 'Register a preHandler for /v1', 'Run the test suite'],
      newFile: {
        path: 'src/auth/api-keys.ts',
        content: "import { createHash, timingSafeEqual } from 'node:crypto'\nimport type { FastifyReply, FastifyRequest } from 'fastify'\n\nconst PREFIX = 'hk_'\n\nexport const hashKey = (key: string) => createHash('sha256').update(key).digest()\n\nexport function apiKeyGuard(knownHashes: Buffer[]) {\n  return async (req: FastifyRequest, reply: FastifyReply) => {\n    const header = req.headers.authorization ?? ''\n    const key = header.startsWith('Bearer ') ? header.slice(7) : ''\n    if (!key.startsWith(PREFIX)) return reply.code(401).send({ error: 'missing_api_key' })\n    const hash = hashKey(key)\n    if (!knownHashes.some((h) => h.length === hash.length && timingSafeEqual(h, hash))) {\n      return reply.code(401).send({ error: 'invalid_api_key' })\n    }\n  }\n}\n",
      },
      edits: [{
        file: 'src/server.ts',
        oldString: "  app.register(userRoutes, { prefix: '/v1' })",
        newString: "  const keys = (process.env.HARBOR_API_KEY_HASHES ?? '').split(',').filter(Boolean).map((h) => Buffer.from(h, 'hex'))\n  app.register(async (v1) => {\n    v1.addHook('preHandler', apiKeyGuard(keys))\n    await v1.register(userRoutes)\n  }, { prefix: '/v1' })",
      }],
      answer: "Done:\n\n- **`src/auth/api-keys.ts`** — `hashKey()` (SHA-256) and `apiKeyGuard(hashes)`, a preHandler that accepts `Authorization: Bearer hk_…` and compares hashes with `timingSafeEqual`.\n- **`src/server.ts`** — the `/v1` routes now live in their own encapsulated plugin with the guard; `/healthz` stays public.\n\nKeys are configured as hex SHA-256 hashes in `HARBOR_API_KEY_HASHES` (comma-separated), so the plaintext never touches the server config.\n\n| request | result |\n|---|---|\n| no header | `401 missing_api_key` |\n| unknown key | `401 invalid_api_key` |\n| known key | passes through |\n\nHeads-up: the existing user tests call `/v1` without a key, so they now get `401` and need a test key.",
      followUp: {
        prompt: 'The user tests need a key now. Add a test for the guard and make the existing tests send a valid key.',
        testFile: {
          path: 'test/api-keys.test.ts',
          content: "import { describe, it, expect } from 'vitest'\nimport Fastify from 'fastify'\nimport { apiKeyGuard, hashKey } from '../src/auth/api-keys.js'\n\nfunction app() {\n  const f = Fastify()\n  f.addHook('preHandler', apiKeyGuard([hashKey('hk_test_123')]))\n  f.get('/x', async () => ({ ok: true }))\n  return f\n}\n\ndescribe('apiKeyGuard', () => {\n  it('rejects a missing key', async () => {\n    expect((await app().inject({ url: '/x' })).statusCode).toBe(401)\n  })\n  it('rejects an unknown key', async () => {\n    const res = await app().inject({ url: '/x', headers: { authorization: 'Bearer hk_nope' } })\n    expect(res.json()).toEqual({ error: 'invalid_api_key' })\n  })\n  it('accepts a known key', async () => {\n    const res = await app().inject({ url: '/x', headers: { authorization: 'Bearer hk_test_123' } })\n    expect(res.statusCode).toBe(200)\n  })\n})\n",
        },
        answer: 'Added `test/api-keys.test.ts` (missing, unknown and valid key) and the user tests now send `Bearer hk_test_123`, whose hash the test server is configured with. Everything passes.',
      },
    },
  ],
  questions: [
    {
      title: 'Why keyset pagination',
      prompt: 'Why do we use keyset pagination here instead of OFFSET/LIMIT? A new teammate asked and I want a good explanation.',
      reads: ['src/lib/pagination.ts', 'src/db/users.ts'],
      answer: "Short version: **OFFSET gets slower and less correct as the table grows; a keyset cursor does neither.**\n\n### How it works here\n\n1. Rows are ordered by `(created_at, id)` — `id` breaks ties between users created in the same instant.\n2. The cursor is the last row's `(created_at, id)`, base64url-encoded (`encodeCursor`).\n3. The next page is `WHERE (created_at, id) > ($1, $2) ORDER BY created_at, id LIMIT $3`, which Postgres answers straight from the `users_created_at_id_idx` index.\n\n### Why not OFFSET\n\n| | `OFFSET n` | keyset |\n|---|---|---|\n| page 1 000 cost | scans and discards 20 000 rows | one index seek |\n| rows inserted meanwhile | pages shift: duplicates or gaps | stable |\n| jump to page *n* | yes | no (next/prev only) |\n\nThe trade-off is the last row: you cannot jump to an arbitrary page, which our UI never needs.\n\nOne subtlety worth telling them about: the cursor must round-trip **exactly** — a precision mismatch between Postgres (µs) and JS `Date` (ms) once caused duplicate rows.",
    },
  ],
  explore: {
    title: 'Where are tokens validated',
    userPrompt: 'Where in this service do we validate tokens or credentials? Use a subagent to map it out, then summarise.',
    description: 'Map credential checks',
    prompt: 'Find every place where tokens, API keys or passwords are validated or compared. Report file paths, function names and line numbers. Research only, do not modify files.',
    pattern: 'verify|timingSafeEqual|authorization',
    reads: ['src/auth/jwt.ts'],
    result: 'Credential checks:\n- `src/auth/jwt.ts` `verify()` (line 16): splits the token, recomputes the HMAC, compares with `timingSafeEqual` (line 21), then checks `exp` (line 24).\n- No other comparisons of secrets; routes do not read `authorization` yet.',
    answer: "There is exactly **one** credential check today: `verify()` in `src/auth/jwt.ts`.\n\n1. split `header.payload.mac`\n2. recompute HMAC-SHA256 over `header.payload`\n3. constant-time compare (`timingSafeEqual`, with a length check first)\n4. parse claims, reject if expired\n\nNothing calls it from the routes yet, so every `/v1` endpoint is currently unauthenticated.",
  },
  plan: {
    title: 'Plan rate limiting',
    file: 'src/server.ts',
    prompt: 'Plan (do not implement) per-key rate limiting for @src/server.ts. We run three instances behind a load balancer.',
    grep: 'register\\(',
    reasoning: 'Three instances means an in-memory limiter would allow 3x the budget. A shared store is needed: Redis is the usual choice; Postgres would work but adds write load on every request.',
    answer: "### Plan: per-key rate limiting\n\n1. **Store** — Redis (`INCR` + `PEXPIRE` in a Lua script, fixed 60 s window). In-memory counters would give each of the 3 instances its own budget.\n2. **Key** — the API key hash once auth lands; client IP until then.\n3. **Where** — a `preHandler` registered next to `userRoutes` in `src/server.ts`, so `/healthz` stays exempt.\n4. **Response** — `429` with `Retry-After`, plus `RateLimit-Limit` / `RateLimit-Remaining` headers.\n5. **Tests** — a fake clock and `ioredis-mock`; one test per header.\n\nOpen question: should an exhausted key fail *open* if Redis is down? I'd say yes for reads, no for writes.",
  },
}

import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import { buildApp } from '../src/app.js'
import type { AppDeps } from '../src/deps.js'
import { createTestDeps, realFixture, TEST_TOKEN, type TestDeps } from './harness.js'

export interface TestServer {
  app: FastifyInstance
  url: string
  port: number
  /** fetch against the server with the owner's Bearer token unless headers override it. */
  fetch(path: string, init?: RequestInit & { auth?: boolean }): Promise<Response>
  close(): Promise<void>
}

/** buildApp(deps) listening on 127.0.0.1:0 — the real wiring, over loopback. */
export async function startTestServer(deps: AppDeps): Promise<TestServer> {
  const app = await buildApp(deps)
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  const url = address.replace('localhost', '127.0.0.1')
  const port = Number(new URL(url).port)
  deps.config.port = port
  return {
    app,
    url,
    port,
    fetch(path, init = {}) {
      const headers = new Headers(init.headers)
      if (init.auth !== false && !headers.has('authorization')) headers.set('authorization', `Bearer ${TEST_TOKEN}`)
      return fetch(url + path, { ...init, headers })
    },
    close: () => app.close(),
  }
}

/**
 * A copy of the real-OpenCode fixture served over loopback for the tests of the calling `describe`:
 * started before them, closed and deleted after. Read `deps` and `server` inside the tests.
 */
export function serveRealFixture(): { readonly deps: TestDeps; readonly server: TestServer } {
  let deps: TestDeps | undefined
  let server: TestServer | undefined
  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    server = await startTestServer(deps)
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
  })
  return {
    get deps() {
      if (!deps) throw new Error('serveRealFixture: read deps inside a test')
      return deps
    },
    get server() {
      if (!server) throw new Error('serveRealFixture: read server inside a test')
      return server
    },
  }
}

import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.js'
import type { AppDeps } from '../src/deps.js'
import { TEST_TOKEN } from './harness.js'

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

import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client'
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '@loupe/api/router'

export type RouterInputs = inferRouterInputs<AppRouter>
export type RouterOutputs = inferRouterOutputs<AppRouter>

export interface ApiOptions {
  /** Extra request headers, e.g. `Authorization: Bearer …` for clients without the cookie (tests, scripts). */
  headers?: Record<string, string>
}

/** The browser's client: batched plain-JSON queries and mutations, SSE for subscriptions; the cookie authenticates. */
export function createApi(baseUrl: string, options: ApiOptions = {}) {
  const headers = options.headers ?? {}
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: baseUrl }),
        false: httpBatchLink({ url: baseUrl, maxURLLength: 4000, headers: () => headers }),
      }),
    ],
  })
}

export type Api = ReturnType<typeof createApi>

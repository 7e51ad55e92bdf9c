import { createMemoryHistory } from '@solidjs/router'
import { render } from '@solidjs/testing-library'
import type { JSX } from 'solid-js'
import { inject } from 'vitest'
import { App } from '../src/app'
import { ApiProvider } from '../src/lib/api-context'
import { createApi, type Api } from '../src/lib/trpc'

/** A client for the real api the global setup started; `token: null` leaves the token out. */
export function realApi(token: string | null = inject('apiToken')): Api {
  return createApi(`${inject('apiUrl')}/trpc`, token ? { headers: { authorization: `Bearer ${token}` } } : {})
}

export function renderWithApi(ui: () => JSX.Element, api: Api = realApi()) {
  return render(() => <ApiProvider api={api}>{ui()}</ApiProvider>)
}

/** The whole app at `url`, in a memory router, talking to the real api. */
export function renderApp(url: string, api: Api = realApi()) {
  const history = createMemoryHistory()
  history.set({ value: url, scroll: false, replace: true })
  const result = renderWithApi(() => <App history={history} />, api)
  return { ...result, history }
}

import { render } from 'solid-js/web'
import { App } from './app'
import { ApiProvider } from './lib/api-context'
import { createApi } from './lib/trpc'

const root = document.getElementById('root')
if (root) render(() => <ApiProvider api={createApi('/trpc')}><App /></ApiProvider>, root)

import { render } from 'solid-js/web'
import { App } from './app'
import { ApiProvider } from './lib/api-context'
import { createApi } from './lib/trpc'
import './styles/base.css'
import './styles/layout.css'
import './styles/sessions.css'
import './styles/session.css'
import './styles/transcript.css'
import './styles/bytes.css'

const root = document.getElementById('root')
if (root) render(() => <ApiProvider api={createApi('/trpc')}><App /></ApiProvider>, root)

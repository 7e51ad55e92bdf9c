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
import './styles/search.css'
import './styles/gallery.css'
import './styles/pruning.css'
import './styles/storage.css'
import './styles/overview.css'
// Last: phone and coarse-pointer tap targets override every page's sizes.
import './styles/touch.css'

const root = document.getElementById('root')
// A share link (`/s/<token>`) is its own small app: it never loads the owner's shell or calls /trpc.
const shared = /^\/s\/([A-Za-z0-9_-]{1,200})\/?$/.exec(window.location.pathname)
if (root && shared) void import('./routes/shared-gallery').then(({ SharedGallery }) => render(() => <SharedGallery token={shared[1]!} />, root))
else if (root) render(() => <ApiProvider api={createApi('/trpc')}><App /></ApiProvider>, root)

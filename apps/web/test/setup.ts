import { cleanup, configure } from '@solidjs/testing-library'
import { afterEach, inject } from 'vitest'

// The page lives at the api's own origin, as in production: happy-dom's fetch enforces CORS and
// the api refuses foreign origins, so a test document on another origin could not call it.
;(window as unknown as { happyDOM: { setURL: (url: string) => void } }).happyDOM.setURL(`${inject('apiUrl')}/sessions`)

// The first render of a lazy route transforms its module; give real requests time to land.
configure({ asyncUtilTimeout: 5000 })

// Without vitest globals the library cannot register its own cleanup.
afterEach(cleanup)

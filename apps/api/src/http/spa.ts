import fs from 'node:fs'
import path from 'node:path'
import type { FastifyReply } from 'fastify'

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Loupe</title>
<style>body{font:16px/1.5 system-ui,sans-serif;background:#0f1115;color:#e6e6e6;display:grid;place-items:center;min-height:100vh;margin:0}
main{max-width:34rem;padding:2rem}code{background:#1c1f26;padding:.1rem .35rem;border-radius:4px}h1{font-size:1.3rem}</style>
</head><body><main><h1>${title}</h1>${body}</main></body></html>`

export const unauthorizedPage = page(
  'Loupe needs its access link',
  `<p>This page is private to the person running Loupe. Open the full URL that <code>npm start</code> printed in the terminal
  (it ends with <code>?token=…</code>); your browser then remembers it.</p>`,
)

const notBuiltPage = page(
  'The Loupe web app is not built',
  `<p>Run <code>npm start</code> from the Loupe folder: it builds the app, then serves it here.</p>`,
)

/** Serves the SPA shell; every client-side route answers with index.html. */
export function createSpa(webRoot: string | null) {
  const indexFile = webRoot ? path.join(webRoot, 'index.html') : null
  const available = indexFile !== null && fs.existsSync(indexFile)
  return {
    available,
    sendIndex(reply: FastifyReply) {
      if (!available || !indexFile) return reply.code(404).type('text/html; charset=utf-8').send(notBuiltPage)
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'")
        .header('x-content-type-options', 'nosniff')
        // A share page's URL is its credential, and the owner's URLs name sessions and searches:
        // neither goes to another site in a Referer.
        .header('referrer-policy', 'no-referrer')
        .send(fs.createReadStream(indexFile))
    },
  }
}

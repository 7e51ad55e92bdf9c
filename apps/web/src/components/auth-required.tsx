/** Shown when the API answers 401: the browser never received the `?token=` link. */
export function AuthRequired() {
  return (
    <div class="auth-required" role="alert">
      <img src="/favicon.svg" alt="" width="48" height="48" />
      <h1>Loupe needs its access link</h1>
      <p>
        Your OpenCode history is private to the person running Loupe, so the server only answers browsers that opened its
        access link.
      </p>
      <ol>
        <li>Find the terminal where you ran <code>npm start</code>.</li>
        <li>Open the URL it printed; it ends with <code>?token=…</code>.</li>
        <li>This browser then remembers it; bookmarks and shared Loupe links work from then on.</li>
      </ol>
    </div>
  )
}

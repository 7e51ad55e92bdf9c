import { A } from '@solidjs/router'
import { createSignal, createUniqueId, Show } from 'solid-js'
import { InlineCode } from '../../components/inline-code'
import { Modal } from '../../components/modal'
import { useApi } from '../../lib/api-context'
import { describeProblem } from '../../lib/errors'
import { sessionHref } from '../../lib/links'
import { createQuery } from '../../lib/query'
import { agentFor, continueCommand, describeAnswer, IMAGES_TITLE, type AnswerView, type FindAnswer } from './conversation.data'
import './images-conversation.css'

export interface ImagesConversationProps {
  /** The location: a project's worktree or a session's directory, as OpenCode stored it. */
  directory: string
  /** How the location is named in the status line, e.g. "this project". */
  place: string
  /** A session was created (lists showing this location may refresh). */
  onCreated?: () => void
}

function statusLine(find: FindAnswer | undefined, place: string): string {
  if (!find) return 'Looking…'
  switch (find.status) {
    case 'found':
      return `Exists for ${place}: “${find.session.title || 'Untitled'}”.`
    case 'absent':
      return find.server.configured ? `None yet for ${place}; Open creates one in OpenCode.` : `None yet for ${place}.`
    case 'unknown':
      return `Could not check: ${find.reason}`
  }
}

/** Find, open and create: the state and actions both variants share. */
function createImagesConversation(props: ImagesConversationProps) {
  const api = useApi()
  const find = createQuery(() => ({ directory: props.directory }), (input, signal) => api.conversation.find.query(input, { signal }))
  const [busy, setBusy] = createSignal<'open' | 'new' | null>(null)
  const [view, setView] = createSignal<AnswerView>()
  const existing = () => {
    const found = find.data()
    return found?.status === 'found' ? found.session : undefined
  }
  const status = () => (find.error() ? `Could not check: ${describeProblem(find.error()).detail}` : statusLine(find.data(), props.place))
  // Creating goes through OpenCode's own server; without one known, Open (when none exists) and New can only fail.
  const serverless = () => find.data()?.server.configured === false
  const noteId = createUniqueId()

  const run = async (mode: 'open' | 'new') => {
    setBusy(mode)
    setView(undefined)
    try {
      const directory = props.directory
      const creating = mode === 'new' || find.data()?.status !== 'found'
      // The design agent only when OpenCode lists it for this location; nothing else is guessed.
      const catalog = creating ? await api.conversation.catalog.query({ directory }).catch(() => undefined) : undefined
      const answer = await api.conversation.images.mutate({ directory, mode, title: IMAGES_TITLE, agent: agentFor(catalog) })
      setView(describeAnswer(answer))
      find.refetch()
      if (answer.status === 'created') props.onCreated?.()
    } catch (error) {
      const problem = describeProblem(error)
      setView({ tone: 'error', title: problem.title, detail: problem.detail, hint: problem.hint, session: null, git: null })
    } finally {
      setBusy(null)
    }
  }
  return { find, busy, view, clear: () => setView(undefined), existing, status, run, serverless, noteId }
}

/** Why creating is off, and how to turn it on: shown beside the disabled buttons, not only in a tooltip (phones have none). */
export const NEEDS_SERVER = 'Creating one needs OpenCode\'s server: run `opencode serve --port 4096`, then start Loupe with `--opencode-url http://127.0.0.1:4096`.'

function Actions(props: { state: ReturnType<typeof createImagesConversation> }) {
  const s = () => props.state
  const openOff = () => s().busy() !== null || (s().serverless() && !s().existing())
  const newOff = () => s().busy() !== null || s().serverless()
  const described = (off: boolean) => (off && s().serverless() ? s().noteId : undefined)
  return (
    <>
      <button type="button" class="button button-accent" disabled={openOff()} aria-describedby={described(openOff())} onClick={() => void s().run('open')}>
        {s().busy() === 'open' ? 'Opening…' : 'Open Images conversation'}
      </button>
      <button type="button" class="button" disabled={newOff()} aria-describedby={described(newOff())} title="Always start a new Images conversation" onClick={() => void s().run('new')}>
        {s().busy() === 'new' ? 'Creating…' : 'New'}
      </button>
    </>
  )
}

function ServerNote(props: { state: ReturnType<typeof createImagesConversation> }) {
  return (
    <Show when={props.state.serverless()}>
      <span class="images-convo-needs muted" id={props.state.noteId}><InlineCode text={NEEDS_SERVER} /></span>
    </Show>
  )
}

const ImageIcon = () => (
  <svg class="images-convo-icon" viewBox="0 0 16 16" aria-hidden="true">
    <rect x="1.5" y="2.5" width="13" height="11" rx="2" fill="none" stroke="currentColor" stroke-width="1.3" />
    <circle cx="5.5" cy="6.5" r="1.3" fill="currentColor" />
    <path d="M2 12l4-4 3 3 2-2 3.5 3.5" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linejoin="round" />
  </svg>
)

/**
 * The location's Images conversation as a bar (on a project): whether it exists, Open (find or
 * create) and New, then what happened below it — the session in Loupe, the command that continues
 * it in a terminal, and git's answer.
 */
export function ImagesConversation(props: ImagesConversationProps) {
  const state = createImagesConversation(props)
  return (
    <section class="images-convo" aria-label="Images conversation">
      <div class="images-convo-bar">
        <ImageIcon />
        <div class="images-convo-text">
          <strong>Images conversation</strong>
          <span class="images-convo-status muted" aria-live="polite">
            <InlineCode text={state.status()} />
          </span>
          <ServerNote state={state} />
        </div>
        <div class="images-convo-actions">
          <Show when={state.existing()}>{(session) => <A class="link-button" href={sessionHref(session())}>View</A>}</Show>
          <Actions state={state} />
        </div>
      </div>
      <Show when={state.view()}>{(v) => <Result view={v()} onClose={state.clear} />}</Show>
    </section>
  )
}

/** The same in one line, for a toolbar (the gallery): what happened opens in a dialog. */
export function ImagesConversationButtons(props: ImagesConversationProps) {
  const state = createImagesConversation(props)
  const label = () => {
    const found = state.find.data()
    return found?.status === 'found' ? 'exists' : found?.status === 'absent' ? 'none yet' : found ? 'unknown' : '…'
  }
  return (
    <div class="images-convo-inline" role="group" aria-label="Images conversation">
      <div class="images-convo-inline-row">
        <span class="images-convo-chip" title={state.status().replace(/`/g, '')}>
          <ImageIcon />
          Images conversation: <span class="images-convo-state">{label()}</span>
        </span>
        <Actions state={state} />
      </div>
      <ServerNote state={state} />
      <Show when={state.view()}>
        {(v) => (
          <Modal label="Images conversation" class="images-convo-dialog" onClose={state.clear}>
            <Result view={v()} />
          </Modal>
        )}
      </Show>
    </div>
  )
}

function Result(props: { view: AnswerView; onClose?: () => void }) {
  return (
    <div class={`images-convo-result tone-${props.view.tone}`} role={props.view.tone === 'error' ? 'alert' : 'status'}>
      <Show when={props.onClose}>
        <button type="button" class="icon-button images-convo-close" aria-label="Dismiss" onClick={() => props.onClose?.()}>×</button>
      </Show>
      <h3>{props.view.title}</h3>
      <Show when={props.view.detail}>{(detail) => <p class="images-convo-detail">{detail()}</p>}</Show>
      <Show when={props.view.hint}>{(hint) => <p class="images-convo-hint"><InlineCode text={hint()} /></p>}</Show>
      <Show when={props.view.session}>
        {(session) => (
          <>
            <p class="images-convo-session">
              <A class="button" href={sessionHref(session())}>View “{session().title || 'Untitled'}” in Loupe</A>
              <span class="muted">{session().id}</span>
            </p>
            <Continue id={session().id} directory={session().directory} />
          </>
        )}
      </Show>
      <Show when={props.view.git}>{(git) => <p class={`images-convo-git tone-${git().tone}`}>{git().text}</p>}</Show>
    </div>
  )
}

/** The command that continues the conversation in OpenCode's terminal UI, with copy buttons. */
function Continue(props: { id: string; directory: string }) {
  const command = () => continueCommand(props)
  const [copied, setCopied] = createSignal<'short' | 'full' | null>(null)
  const copy = async (which: 'short' | 'full') => {
    if (await copyText(command()[which])) {
      setCopied(which)
      setTimeout(() => setCopied(null), 1500)
    }
  }
  return (
    <div class="images-convo-continue">
      <span class="muted">Continue in a terminal, in <span class="images-convo-dir" title={props.directory}>{props.directory}</span>:</span>
      <div class="images-convo-command">
        <code>{command().short}</code>
        <button type="button" class="button" onClick={() => void copy('short')}>{copied() === 'short' ? 'Copied' : 'Copy'}</button>
        <button type="button" class="button button-quiet" title={command().full} onClick={() => void copy('full')}>
          {copied() === 'full' ? 'Copied' : 'Copy with cd'}
        </button>
      </div>
    </div>
  )
}

/** The clipboard API needs a secure context (not a LAN address over http): fall back to a selection copy. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.append(area)
    area.select()
    const done = document.execCommand('copy')
    area.remove()
    return done
  }
}

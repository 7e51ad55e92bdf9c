import { A } from '@solidjs/router'
import { createEffect, createSignal, For, Match, onCleanup, Show, Switch } from 'solid-js'
import { Modal } from '../../components/modal'
import { useApi } from '../../lib/api-context'
import { describeProblem } from '../../lib/errors'
import { formatAbsoluteTime, formatBytes, formatCount, plural, shortDirectory } from '../../lib/format'
import { sessionHref } from '../../lib/links'
import type { RouterInputs, RouterOutputs } from '../../lib/trpc'

type Rule = RouterInputs['storage']['cleanPlan']['rule']
type Plan = RouterOutputs['storage']['cleanPlan']
type State = RouterOutputs['storage']['cleanStatus']

/**
 * DB-wide retention clean-up: a rule, then the plan (sessions, parts, bytes, tokens) before anything
 * is written; Apply quotes the plan's fingerprint, so a history that changed meanwhile is refused.
 */
export function CleanDialog(props: { onClose: () => void; onDone: () => void }) {
  const api = useApi()
  const [idleDays, setIdleDays] = createSignal(30)
  const [minKB, setMinKB] = createSignal<number | null>(null)
  const [plan, setPlan] = createSignal<{ rule: Rule; plan: Plan }>()
  const [state, setState] = createSignal<State>()
  const [problem, setProblem] = createSignal<string>()
  const [busy, setBusy] = createSignal(false)
  const rule = (): Rule => ({ idleDays: idleDays(), ...(minKB() ? { minToolOutputKB: minKB() ?? 1 } : {}) })
  let timer: ReturnType<typeof setTimeout> | undefined
  const poll = async () => {
    const next = await api.storage.cleanStatus.query()
    setState(next)
    if (next.state === 'running') timer = setTimeout(() => void poll(), 400)
    else if (next.state === 'finished') props.onDone()
  }
  onCleanup(() => clearTimeout(timer))
  createEffect(() => {
    rule()
    setPlan(undefined)
  })

  async function review() {
    setProblem(undefined)
    setBusy(true)
    try {
      const r = rule()
      setPlan({ rule: r, plan: await api.storage.cleanPlan.query({ rule: r }) })
    } catch (error) {
      setProblem(describeProblem(error).detail)
    } finally {
      setBusy(false)
    }
  }
  async function apply(p: { rule: Rule; plan: Plan }) {
    setProblem(undefined)
    const answer = await api.storage.cleanApply.mutate({ rule: p.rule, fingerprint: p.plan.fingerprint }).catch((error: unknown) => ({ status: 'error' as const, detail: describeProblem(error).detail }))
    if (answer.status !== 'started') {
      setProblem(answer.detail)
      if (answer.status === 'conflict') setPlan(undefined)
      return
    }
    void poll()
  }
  const running = () => {
    const s = state()
    return s?.state === 'running' ? s : undefined
  }
  const finished = () => {
    const s = state()
    return s?.state === 'finished' ? s : undefined
  }

  return (
    <Modal label="Clean up old sessions" class="prune-dialog clean-dialog" onClose={props.onClose}>
      <h2>Clean up old sessions</h2>
      <p class="muted small">Removes the tool calls and reasoning of finished assistant messages in sessions with no activity for a while. Text and step records stay.</p>
      <div class="clean-rule">
        <label>
          Idle for at least <input type="number" min={0} max={36500} value={idleDays()} onInput={(e) => setIdleDays(Math.max(0, Math.floor(Number(e.currentTarget.value) || 0)))} /> days
        </label>
        <label>
          <input type="checkbox" checked={minKB() !== null} onChange={(e) => setMinKB(e.currentTarget.checked ? 64 : null)} /> only tool calls of at least
          <input type="number" min={1} value={minKB() ?? 64} disabled={minKB() === null} onInput={(e) => setMinKB(Math.max(1, Math.floor(Number(e.currentTarget.value) || 1)))} /> KB
        </label>
      </div>
      <Switch>
        <Match when={running()}>
          {(r) => (
            <div role="status">
              <span>{r().done.sessions} of {r().total.sessions} sessions, {plural(r().done.parts, 'part')} removed…</span>
              <progress max={Math.max(1, r().total.sessions)} value={r().done.sessions} aria-label="Clean-up progress" />
              <button type="button" class="button" disabled={r().stopping} onClick={() => void api.storage.cleanStop.mutate().then(poll)}>
                {r().stopping ? 'Stopping…' : 'Stop'}
              </button>
            </div>
          )}
        </Match>
        <Match when={finished()}>
          {(f) => (
            <div class="banner banner-info" role="status">
              {f().result.message} <A href="/storage" onClick={props.onClose}>Reclaim space</A> on this page gives the bytes back to the disk.
            </div>
          )}
        </Match>
        <Match when={plan()}>
          {(p) => (
            <Show when={p().plan.sessions > 0} fallback={<p role="status">Nothing to clean up with this rule.</p>}>
              <p role="status">
                <strong>{plural(p().plan.parts, 'part')}</strong> ({formatBytes(p().plan.bytes)}, ~{formatCount(p().plan.tokens)} tokens) in {plural(p().plan.sessions, 'session')}
                <Show when={p().plan.skipped.length > 0}>; {plural(p().plan.skipped.length, 'session')} left out (OpenCode is working in them, or they are compacting)</Show>.
              </p>
              <ul class="clean-list">
                <For each={p().plan.list}>
                  {(s) => (
                    <li>
                      <A href={sessionHref({ id: s.sessionID, storage: s.storage })}>{s.title || 'Untitled session'}</A>{' '}
                      <span class="muted">{plural(s.parts, 'part')}, {formatBytes(s.bytes)}</span>
                      {/* Date, place and id: sessions of one title differ in these. */}
                      <span class="clean-list-where">
                        <span title={`Last active ${formatAbsoluteTime(s.timeUpdated)}`}>{formatAbsoluteTime(s.timeUpdated)}</span>
                        <Show when={s.directory}><span class="hit-group-dir" title={s.directory}><bdi>{shortDirectory(s.directory)}</bdi></span></Show>
                        <code>{s.sessionID}</code>
                      </span>
                    </li>
                  )}
                </For>
              </ul>
              <button type="button" class="button button-danger" onClick={() => void apply(p())}>Remove {plural(p().plan.parts, 'part')}</button>
            </Show>
          )}
        </Match>
        <Match when={true}>
          <button type="button" class="button button-primary" disabled={busy()} onClick={() => void review()}>{busy() ? 'Looking…' : 'Review what would go'}</button>
        </Match>
      </Switch>
      <Show when={problem()}>
        <div class="banner banner-warn" role="alert">{problem()}</div>
      </Show>
    </Modal>
  )
}

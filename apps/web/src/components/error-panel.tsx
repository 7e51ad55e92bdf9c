import { Show } from 'solid-js'
import { describeProblem } from '../lib/errors'
import { InlineCode } from './inline-code'

export interface ErrorPanelProps {
  error: unknown
  onRetry?: () => void
  compact?: boolean
}

/** A failed request, said plainly: what happened, and what to do about it. */
export function ErrorPanel(props: ErrorPanelProps) {
  const problem = () => describeProblem(props.error)
  return (
    <div class="error-panel" classList={{ compact: props.compact }} role="alert" data-problem={problem().kind}>
      <div class="error-panel-icon" aria-hidden="true">!</div>
      <div class="error-panel-text">
        <h2>{problem().title}</h2>
        <p class="error-panel-detail">{problem().detail}</p>
        <p class="error-panel-hint"><InlineCode text={problem().hint} /></p>
      </div>
      <Show when={props.onRetry}>
        <button type="button" class="button" onClick={() => props.onRetry?.()}>Try again</button>
      </Show>
    </div>
  )
}

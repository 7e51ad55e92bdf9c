import { formatAbsoluteTime, formatRelativeTime } from '../lib/format'

/** A relative time ("5 min ago") with the absolute time on hover. */
export function RelativeTime(props: { at: number; now?: number; class?: string }) {
  return (
    <time class={props.class} datetime={new Date(props.at).toISOString()} title={formatAbsoluteTime(props.at)}>
      {formatRelativeTime(props.at, props.now)}
    </time>
  )
}

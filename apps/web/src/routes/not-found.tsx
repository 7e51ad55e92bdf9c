import { A, useLocation } from '@solidjs/router'
import { EmptyState } from '../components/empty-state'

export function NotFound() {
  const location = useLocation()
  return (
    <div class="page page-narrow">
      <EmptyState title="Nothing lives at this address" icon="404" action={<A class="button" href="/sessions">Go to sessions</A>}>
        <p>
          <code>{location.pathname}</code> is not a Loupe page. The link may be mistyped or from a newer version of Loupe.
        </p>
      </EmptyState>
    </div>
  )
}

import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'

/**
 * A trivial page (the full shell, no data of its own) that `npm run bench` measures beside the
 * real pages, so their cost is read against the framework's own. Harmless, so served everywhere.
 */
export function loader() {
  return null
}

export default function Ping() {
  return <p>pong</p>
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { data } from '@remix-run/node'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'

/** Unknown paths answer a real 404 for GET and POST; the root error boundary shows the page. */
export async function loader() {
  throw data(null, { status: 404 })
}

export async function action() {
  throw data(null, { status: 404 })
}

export default function NotFound() {
  return null
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

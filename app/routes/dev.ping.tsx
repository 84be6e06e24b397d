import { data, type LoaderFunctionArgs } from '@remix-run/node'

/** A trivial page for `npm run bench` to compare real pages against (not in production). */
export function loader({ context }: LoaderFunctionArgs) {
  if (context.services.config.isProduction) throw data(null, { status: 404 })
  return null
}

export default function Ping() {
  return <p>pong</p>
}

import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'

/**
 * `/messenger/{channel}`, the mobile app's address of a conversation (spec §2), so that a link
 * from the app's notifications opens on the web: a temporary redirect to the web's own address,
 * `/messenger?channel={channel}`, keeping any other query (`?before=`). Everything else — signing
 * in first, a channel that does not exist or is not the member's — is then as for that address.
 * `new`, `report`, `events` and `send` are routes of their own and win over this one.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  const search = new URLSearchParams({ channel: params.channel ?? '' })
  for (const [name, value] of new URL(request.url).searchParams) if (name !== 'channel') search.append(name, value)
  return redirect(`/messenger?${search}`)
}

/** Never drawn (the loader always redirects); a page route, so that a client-side link to it follows the redirect too. */
export default function MessengerChannelAddress() {
  return null
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

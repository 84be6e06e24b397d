import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import { loadProfile } from './__profile.server.ts'
import { ProfileView } from './__profile.tsx'

/** `/p/{slug}`: another member's public profile (issue 13 §3). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadProfile({ request, context }, params.slug ?? '')
}

export default function PublicProfile() {
  return <ProfileView loaded={useLoaderData<typeof loader>()} />
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { requireUser } from '#app/utils/auth.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { loadProfile } from './__profile.server.ts'
import { ProfileView } from './__profile.tsx'

/** `/p`: the member's own profile exactly as other members see it, with a way to edit it. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  return loadProfile({ request, context }, user.id)
}

export default function OwnProfile() {
  return <ProfileView loaded={useLoaderData<typeof loader>()} />
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ContentPageView } from '#app/components/content-page.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { loadContentPage } from '#app/utils/content.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadContentPage(request, context, ['privacy', 'terms'], params.page)
}

export default function Page() {
  return <ContentPageView page={useLoaderData<typeof loader>().page} />
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.page.title, data?.page.description)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

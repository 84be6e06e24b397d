import { data, type AppLoadContext } from '@remix-run/node'
import type { ContentPage } from './content-page.ts'
import { getT } from './i18next.server.ts'

/** A company or legal page in the request's language, with the support address filled in. */
export async function loadContentPage(request: Request, context: AppLoadContext, pages: readonly string[], page: string | undefined) {
  if (!page || !pages.includes(page)) throw data(null, { status: 404 })
  const t = await getT(request, context, 'pages')
  return { page: t(page, { returnObjects: true, supportEmail: context.services.config.supportEmail }) as unknown as ContentPage }
}

import type { LoaderFunctionArgs } from '@remix-run/node'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'

/**
 * `/admin/medicare/export`: the agency's list as a CSV file (decision 086), for finance and admins
 * (anyone else: the API's 403). The API records each download; no cache keeps the file.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const csv = await getApi(request, context).medicare.exportCsv().catch(notFoundOnMissing)
  const day = new Date().toISOString().slice(0, 10)
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="medicare-calls-${day}.csv"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

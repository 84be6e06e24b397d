import type { LoaderFunctionArgs } from '@remix-run/node'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'

/** The host's attendee CSV (the API refuses anyone but the host or an admin). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const csv = await getApi(request, context)
    .experiences.attendeesCsv(params.id ?? '')
    .catch(notFoundOnMissing)
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="attendees-${params.id ?? 'activity'}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  })
}

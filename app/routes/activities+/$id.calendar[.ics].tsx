import type { LoaderFunctionArgs } from '@remix-run/node'
import { getApi } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'

/** "Add to calendar": the activity as an .ics file from the API (`?format=ical`). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const calendar = await getApi(request, context)
    .experiences.calendar(params.id ?? '')
    .catch(notFoundOnMissing)
  return new Response(calendar, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="activity-${params.id ?? 'event'}.ics"`,
      'Cache-Control': 'private, no-store',
    },
  })
}

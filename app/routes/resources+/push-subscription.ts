import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { registerDeviceSchema, unregisterDeviceSchema } from '#contract/push.ts'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'

/**
 * This browser's push subscription (decision 048), for the pages that turn push on with
 * JavaScript (app/utils/push.client.ts): GET answers the key to subscribe with; POST keeps the
 * subscription (`{ subscription }`) or forgets it (`{ unregister: endpoint }`) through the API.
 * The browser never calls the API itself.
 */
const noStore = { 'Cache-Control': 'private, no-store' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const publicKey = await getApi(request, context).push.key()
  return Response.json({ public_key: publicKey }, { headers: noStore })
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const body = (await request.json().catch(() => null)) as { subscription?: unknown; unregister?: unknown } | null
  const api = getApi(request, context).push
  try {
    if (body && typeof body.unregister === 'string') {
      const { endpoint } = unregisterDeviceSchema.parse({ endpoint: body.unregister })
      await api.unregister(endpoint)
      return Response.json({ ok: true }, { headers: noStore })
    }
    const subscription = registerDeviceSchema.safeParse(body?.subscription)
    if (!subscription.success) return Response.json({ ok: false }, { status: 422, headers: noStore })
    await api.register(subscription.data)
    return Response.json({ ok: true }, { headers: noStore })
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return Response.json({ ok: false }, { status: error.status, headers: noStore })
    context.services.log('warn', 'A push subscription was not kept', { requestId: context.requestId, error: String(error) })
    return Response.json({ ok: false }, { status: 503, headers: noStore })
  }
}

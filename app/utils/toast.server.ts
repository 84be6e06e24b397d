import { redirect, type AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { siteCookie } from './cookies.server.ts'

/**
 * One-time messages shown after a redirect ("Your changes are saved"), kept in a short cookie.
 * An `action` is a link the message offers ("Try again"): such a toast waits to be dismissed.
 */
const toastSchema = z.object({
  kind: z.enum(['success', 'info', 'error']),
  key: z.string(),
  action: z.object({ to: z.string().regex(/^\/(?![/\\])/), key: z.string() }).optional(),
  /** The message's values ("You gave this activity {{count}} stars"): what was recorded, said in the message. */
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
})
export type Toast = z.infer<typeof toastSchema>

function toastCookie(context: AppLoadContext) {
  return siteCookie(context, 'toast', 120)
}

export async function setToast(context: AppLoadContext, toast: Toast) {
  return toastCookie(context).serialize(toast)
}

export async function takeToast(request: Request, context: AppLoadContext) {
  const cookie = toastCookie(context)
  const raw: unknown = await cookie.parse(request.headers.get('Cookie'))
  if (!raw) return { toast: null, clear: null }
  const parsed = toastSchema.safeParse(raw)
  return { toast: parsed.success ? parsed.data : null, clear: await cookie.serialize('', { maxAge: 0 }) }
}

/**
 * Goes to `to` with a one-time message: a success's translation key, or a whole `Toast`.
 * `headers` carries the answer's other cookies.
 */
export async function redirectWithToast(context: AppLoadContext, to: string, toast: Toast | string, headers = new Headers()) {
  headers.append('Set-Cookie', await setToast(context, typeof toast === 'string' ? { kind: 'success', key: toast } : toast))
  return redirect(to, { headers })
}

import { parseWithZod } from '@conform-to/zod/v4'
import {
  redirect,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type ActionFunctionArgs,
  type AppLoadContext,
} from '@remix-run/node'
import type { Verification } from '#contract/verification.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { keepFormOnOutage, loadFormPage } from '#app/utils/forms.server.ts'
import { formErrorsFromApi } from '#app/utils/http.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { photoFormUploadHandler } from '#app/utils/upload-handler.server.ts'
import { verificationFormSchema } from './__verification-form.tsx'

/**
 * Loader and action of the identity verification pages (/account/verification and the onboarding
 * step /get-started/verification; decision 025). The action reads the multipart form itself
 * (two photos of at most 15 MB each; a larger one is dropped and said next to its field), sends
 * it to `POST v1/verification/initiate`, and maps the API's answers onto the form: a missing,
 * unreadable or too large photo on its field, §8's pending conflict (409) above the form.
 */
const e = (key: string) => `verification:errors.${key}`

/** When the database is down, the page is drawn as for a member who has not started. */
const unknownStatus: Verification = {
  status: 'not_verified',
  rejection_reason: null,
  provider: 'builtin',
  requested_at: null,
  decided_at: null,
  redirect_url: null,
}

export function loadVerification(request: Request, context: AppLoadContext) {
  return loadFormPage(
    context,
    async () => {
      await requireUser(request, context)
      return getApi(request, context).verification.status()
    },
    () => unknownStatus,
  )
}

const photoMessage: Record<string, string> = { too_large: e('photo_too_large'), invalid_format: e('photo_format') }
const photoMessages = (field: 'document' | 'selfie') => (codes: string[]) =>
  codes.map((code) => (code === 'required' ? e(`${field}_required`) : (photoMessage[code] ?? e('photo_rejected'))))
const apiErrorMapping = {
  messages: { document: photoMessages('document'), selfie: photoMessages('selfie') },
  conflict: (code: string | null) => e(code === 'already_verified' ? 'already_verified' : 'verification_pending'),
}

async function readForm(request: Request) {
  const tooLarge = new Set<string>()
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get('Content-Type') ?? '')) {
    return { formData: await request.formData().catch(() => new FormData()), tooLarge }
  }
  const handler = photoFormUploadHandler(request, (field) => tooLarge.add(field))
  return { formData: await parseMultipartFormData(request, handler), tooLarge }
}

/**
 * Starts a request; then goes to `done` (the status page says it is being checked), or to
 * Stripe Identity's page when Stripe checks.
 */
export async function submitVerification(request: Request, context: ActionFunctionArgs['context'], done: { to: string; toast: boolean; onSent?: () => Promise<unknown> }) {
  // Read first: an outage (the session store included) answers with the form, saying nothing was sent.
  const { formData, tooLarge } = await readForm(request)
  const submission = parseWithZod(formData, { schema: verificationFormSchema })
  const fail = (status: number, errors: Parameters<typeof submission.reply>[0]) => refusedForm(context, submission.reply(errors), status)
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const api = getApi(request, context)
      let started: Verification
      try {
        if (formData.get('intent') === 'stripe') {
          started = await api.verification.initiate(null)
        } else {
          if (tooLarge.size > 0) {
            return fail(413, { fieldErrors: Object.fromEntries([...tooLarge].map((field) => [field, [e('photo_too_large')]])) })
          }
          if (submission.status !== 'success') return fail(400, {})
          started = await api.verification.initiate(submission.value)
        }
      } catch (error) {
        const { status, ...errors } = formErrorsFromApi(error, apiErrorMapping)
        return fail(status, errors)
      }
      await done.onSent?.()
      if (started.redirect_url) return redirect(started.redirect_url)
      return done.toast ? redirectWithToast(context, done.to, 'verification:toast.sent') : redirect(done.to)
    },
    () => submission.reply({ formErrors: [e('not_saved')], fieldErrors: {} }),
  )
}

import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { PREMIUM_PRICE_CENTS, PREMIUM_TERMS_VERSION, dollars } from '#contract/subscriptions.ts'
import { ApiError } from './api.server.ts'
import { getApi, requireUser } from './auth.server.ts'
import { refusedForm } from './form-action.server.ts'
import { keepFormOnOutage } from './forms.server.ts'
import { minutesToWait } from './http.server.ts'
import { detectLanguage, getT } from './i18next.server.ts'
import { redirectWithToast, type Toast } from './toast.server.ts'

/**
 * Joining and leaving premium from the web (decision 074), shared by `/account/subscription`,
 * `/pricing` and `/get-started/subscription`: the paid plan only with the consent box ticked (the
 * terms shown above it are recorded with the consent, word for word), a partner's $0 offer in one
 * press, and cancelling.
 */
export const joinPremiumSchema = z.object({
  intent: z.literal('join'),
  consent: z.literal('yes', { error: 'subscriptions:terms.consentRequired' }),
})

/** The auto-renewal terms exactly as the page shows them above the box, and the box's words. */
export async function premiumTermsText(request: Request, context: AppLoadContext) {
  const t = await getT(request, context, 'subscriptions')
  const price = dollars(PREMIUM_PRICE_CENTS)
  return `${t('terms.text', { price })}\n${t('terms.consent', { price })}`
}

/** What an API refusal to join says, as a toast on `to`; other errors go on. */
function refusalToast(error: unknown): Toast | null {
  if (!(error instanceof ApiError)) return null
  if (error.code === 'already_subscribed')
    return { kind: 'info', key: 'subscriptions:errors.already' }
  if (error.code === 'payments_off')
    return { kind: 'info', key: 'subscriptions:errors.paymentsOff' }
  if (error.status === 422 && error.fields.partnership_id)
    return { kind: 'info', key: 'subscriptions:errors.notEligible' }
  if (error.code === 'not_subscribed')
    return { kind: 'info', key: 'subscriptions:errors.nothingToCancel' }
  if (error.status === 429) return { kind: 'error', key: 'subscriptions:errors.tooMany', values: { count: minutesToWait(error) } }
  return null
}

/** "Join premium" (paid): the box ticked, or the refusal next to it; then the provider's hosted payment page. */
export async function joinPaidPremium(
  request: Request,
  context: AppLoadContext,
  form: FormData,
  options: { returnPath: string; refusedTo: string },
) {
  const submission = parseWithZod(form, { schema: joinPremiumSchema })
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      if (submission.status !== 'success') return refusedForm(context, submission.reply(), 400)
      try {
        const started = await getApi(request, context).subscriptions.initiate({
          consent_to_renewal: true,
          consent_text_version: PREMIUM_TERMS_VERSION,
          consent_text: await premiumTermsText(request, context),
          locale: await detectLanguage(request, context),
          return_path: options.returnPath,
        })
        if (started.redirect_url) return redirect(started.redirect_url)
        return redirectWithToast(context, options.refusedTo, {
          kind: 'success',
          key: 'subscriptions:done.joined',
        })
      } catch (error) {
        const toast = refusalToast(error)
        if (!toast) throw error
        return redirectWithToast(context, options.refusedTo, toast)
      }
    },
    () => submission.reply({ formErrors: ['subscriptions:errors.notSaved'] }),
  )
}

/** "Accept the offer": a partner's $0 plan at once, then `to` with "Welcome to premium". */
export async function acceptPartnerOffer(
  request: Request,
  context: AppLoadContext,
  partnershipId: string,
  options: { to: string; refusedTo: string },
) {
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      try {
        await getApi(request, context).subscriptions.initiate({ partnership_id: partnershipId })
        return redirectWithToast(context, options.to, {
          kind: 'success',
          key: 'subscriptions:done.joined',
        })
      } catch (error) {
        const toast =
          refusalToast(error) ??
          (error instanceof ApiError && error.status === 422
            ? ({ kind: 'info', key: 'subscriptions:errors.notEligible' } as const)
            : null)
        if (!toast) throw error
        return redirectWithToast(context, options.refusedTo, toast)
      }
    },
    () => ({ formErrors: ['subscriptions:errors.notSaved'] }),
  )
}

/** "Yes, cancel premium". */
export async function cancelPremium(request: Request, context: AppLoadContext, to: string) {
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      try {
        await getApi(request, context).subscriptions.cancel()
        return redirectWithToast(context, to, {
          kind: 'success',
          key: 'subscriptions:done.canceled',
        })
      } catch (error) {
        const toast = refusalToast(error)
        if (!toast) throw error
        return redirectWithToast(context, to, toast)
      }
    },
    () => ({ formErrors: ['subscriptions:errors.notSaved'] }),
  )
}

/**
 * Back from the hosted payment page (`?checkout={id}`, `&canceled=1` when the member gave up):
 * reading the member's plan applies a finished payment; the toast says what came of it.
 */
export async function checkoutReturnToast(
  request: Request,
  context: AppLoadContext,
  url: URL,
): Promise<Toast> {
  if (url.searchParams.has('canceled'))
    return { kind: 'info', key: 'subscriptions:done.paymentCanceled' }
  const mine = await getApi(request, context).subscriptions.mine()
  if (mine?.status === 'active') return { kind: 'success', key: 'subscriptions:done.joined' }
  return { kind: 'info', key: 'subscriptions:account.waiting' }
}

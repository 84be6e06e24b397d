import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { FieldErrors } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { PREMIUM_PRICE_CENTS, dollars, type Partnership } from '#contract/subscriptions.ts'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * Premium's building blocks (decision 074), shared by `/account/subscription`, `/pricing` and
 * `/get-started/subscription`: the paid plan's form with the auto-renewal terms right above the
 * button and an unticked consent box, and a partner's offer ("$0 per year, formerly $20 per year").
 */

/** The same rule as the server's (app/utils/subscription.server.ts), for conform in the browser. */
const joinSchema = z.object({
  intent: z.literal('join'),
  consent: z.literal('yes', { error: 'subscriptions:terms.consentRequired' }),
})

/** A day in the member's language ("December 1, 2027"), as US Eastern time sees it. */
export function useDay() {
  const { i18n } = useTranslation()
  return (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, {
      dateStyle: 'long',
      timeZone: 'America/New_York',
    }).format(new Date(iso))
}

/** "Join premium": the terms (price, yearly renewal, how to cancel), the consent box, the button. */
export function JoinPremiumForm({
  lastResult,
  action,
}: {
  lastResult?: SubmissionResult<string[]> | null
  action?: string
}) {
  const { t } = useTranslation('subscriptions')
  const price = dollars(PREMIUM_PRICE_CENTS)
  const [form, fields] = useZodForm({
    id: 'join-premium',
    lastResult,
    schema: joinSchema,
  })
  const errors = fields.consent.errors
  return (
    <section aria-labelledby="join-premium-terms">
      <ErrorSummary
        errors={summaryFrom({ consent: errors }, ['consent'])}
        formErrors={form.errors}
      />
      <h2 id="join-premium-terms">{t('terms.heading')}</h2>
      <Form method="post" action={action} {...getFormProps(form)}>
        <input type="hidden" name="intent" value="join" />
        <p id="consent-terms">{t('terms.text', { price })}</p>
        <div className={errors?.length ? 'field field--error' : 'field'}>
          <FieldErrors id="consent-error" errors={errors} />
          <div className="choice">
            <input
              id="consent"
              type="checkbox"
              name="consent"
              value="yes"
              aria-invalid={errors?.length ? true : undefined}
              aria-describedby={['consent-terms', errors?.length ? 'consent-error' : null]
                .filter(Boolean)
                .join(' ')}
            />
            <label htmlFor="consent">{t('terms.consent', { price })}</label>
          </div>
        </div>
        <div className="button-row">
          <SubmitButton className="button" pending="working">
            {t('pricing.join')}
          </SubmitButton>
        </div>
      </Form>
    </section>
  )
}

/** A partner's $0 offer: "$0 per year, formerly $20 per year" (spec §9) with the partner's name, and "Accept the offer". */
export function PartnerOffer({
  offer,
  soldAtRegularPrice,
  action,
}: {
  offer: Partnership
  soldAtRegularPrice: boolean
  action?: string
}) {
  const { t } = useTranslation('subscriptions')
  const values = {
    partner: offer.name,
    price: dollars(offer.price_cents),
    regular: dollars(offer.regular_price_cents),
  }
  return (
    <section className="notice" aria-labelledby="partner-offer">
      <h2 id="partner-offer">{t('offer.title', values)}</h2>
      {/* "formerly" only while premium really sells at that price here; otherwise who pays the regular price. */}
      <p className="lead">
        {soldAtRegularPrice ? t('offer.price', values) : t('offer.regular', values)}
      </p>
      <p>{t('offer.text', values)}</p>
      <Form method="post" action={action} className="button-row">
        <input type="hidden" name="partnership_id" value={offer.id} />
        <SubmitButton className="button" name="intent" value="accept" pending="working">
          {t('offer.accept')}
        </SubmitButton>
      </Form>
    </section>
  )
}

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { ChoiceGroup, FieldErrors, TextField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import type { MedicareConsent, MedicareState } from '#contract/medicare.ts'
import { medicareTopics } from '#contract/medicare-rules.ts'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * Permission to be called about Medicare plans (decision 086), shared by `/account/medicare` and
 * `/get-started/medicare`: the form (the phone number, the topics, the words naming the agency
 * with an unticked box as their last paragraph), what the member agreed to with "Stop these
 * calls", and the free, unbiased help and the anti-scam line every state shows.
 */

const m = (key: string) => `medicare:errors.${key}`

/** One schema for the browser and the server (conform). The API checks the number itself (libphonenumber-js). */
export const giveSchema = z.object({
  intent: z.literal('give'),
  phone: z
    .string({ error: m('phoneRequired') })
    .trim()
    .min(1, m('phoneRequired'))
    .max(40, m('phoneInvalid'))
    // Ten digits (or eleven with the country's 1) in the browser; the server checks the number itself.
    .refine((phone) => phone === '' || /^1?\d{10}$/.test(phone.replace(/\D/g, '')), m('phoneInvalid')),
  topics: z.array(z.enum(medicareTopics, { error: m('topicsRequired') }), { error: m('topicsRequired') }).min(1, m('topicsRequired')),
  agree: z.literal('yes', { error: m('agreeRequired') }),
  version: z.string().max(100),
  partner_revision: z.coerce.number().int(),
})

type Offer = NonNullable<MedicareState['offer']>

/** The form: the phone number (the confirmed one filled in), the topics, the words with the box, "Agree and ask for a call". */
/** The answer said the agency's words changed since the page was drawn (the box is then shown unticked again). */
function wordsChangedIn(result: { error?: Record<string, string[] | null> | null } | undefined | null) {
  return Boolean(result?.error?.['']?.includes('medicare:errors.wordsChanged'))
}

/**
 * Nothing is offered (no agency, or the `medicare-calls` flag off for the member). An agreement
 * sent from a page drawn before that was refused: said first, so the member knows nothing went.
 */
export function MedicareNoOffer({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation('medicare')
  const refused = lastResult?.error?.['']?.includes(m('notOffered'))
  return (
    <>
      {refused ? (
        <div className="notice notice--error" role="alert">
          <p>{t('errors.notOffered')}</p>
        </div>
      ) : null}
      <p className="lead">{t('noOffer')}</p>
    </>
  )
}

export function MedicareForm({ offer, phone, lastResult }: { offer: Offer; phone: string | null; lastResult?: SubmissionResult<string[]> | null }) {
  const wordsChanged = wordsChangedIn(lastResult)
  const { t } = useTranslation('medicare')
  const [form, fields] = useZodForm({
    id: 'medicare',
    lastResult,
    schema: giveSchema,
    defaultValue: { phone: phone ?? '' },
  })
  const paragraphs = offer.text.split('\n\n')
  const label = paragraphs.pop() ?? ''
  const typed = (value: unknown) => (typeof value === 'string' ? value : '')
  const chosen = fields.topics.initialValue
  const topics = Array.isArray(chosen) ? chosen.filter((topic): topic is string => typeof topic === 'string') : typeof chosen === 'string' ? [chosen] : []
  // New words are agreed to afresh: the box is not kept ticked for them.
  const ticked = !wordsChanged && fields.agree.initialValue === 'yes'
  const agreeErrors = fields.agree.errors
  return (
    <>
      <ErrorSummary errors={summaryFrom({ phone: fields.phone.errors, topics: fields.topics.errors, agree: agreeErrors }, ['phone', 'topics', 'agree'], 'medicare-')} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="give" />
        <input type="hidden" name="version" value={offer.version} />
        <input type="hidden" name="partner_revision" value={String(offer.partner_revision)} />
        <TextField
          id="medicare-phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          label={t('phoneLabel')}
          hint={t(phone ? 'phoneHint' : 'phoneHintEmpty')}
          errors={fields.phone.errors}
          defaultValue={typed(fields.phone.initialValue)}
        />
        <ChoiceGroup
          id="medicare-topics"
          name="topics"
          type="checkbox"
          legend={t('topicsLegend')}
          hint={t('topicsHint')}
          errors={fields.topics.errors}
          options={medicareTopics.map((topic) => ({ value: topic, label: t(`topics.${topic}`) }))}
          defaultValue={topics}
        />
        <section aria-labelledby="medicare-words-heading" id="medicare-words" lang={offer.locale}>
          <h2 id="medicare-words-heading">{t('wordsHeading')}</h2>
          {paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          <div className={agreeErrors?.length ? 'field field--error' : 'field'}>
            <FieldErrors id="medicare-agree-error" errors={agreeErrors} />
            <div className="choice">
              <input
                id="medicare-agree"
                type="checkbox"
                name="agree"
                value="yes"
                defaultChecked={ticked}
                aria-invalid={agreeErrors?.length ? true : undefined}
                aria-describedby={agreeErrors?.length ? 'medicare-agree-error' : undefined}
              />
              <label htmlFor="medicare-agree">{label}</label>
            </div>
          </div>
        </section>
        <div className="button-row">
          <SubmitButton className="button button--secondary" pending="sending">
            {t('submit')}
          </SubmitButton>
        </div>
      </Form>
    </>
  )
}

/** A day in the member's language, as US Eastern time sees it. */
function useDay() {
  const { i18n } = useTranslation()
  return (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'America/New_York' }).format(new Date(iso))
}

/** What the member agreed to, when and to whom, and "Stop these calls" (one press; left out while the team views as them). */
export function MedicareGiven({ consent, canStop }: { consent: MedicareConsent; canStop: boolean }) {
  const { t, i18n } = useTranslation('medicare')
  const day = useDay()
  const topics = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(consent.topics.map((topic) => t(`topics.${topic}`)))
  return (
    <section aria-labelledby="medicare-given" className="notice" data-testid="medicare-given">
      <h2 id="medicare-given">{t('given.heading')}</h2>
      <p>{t('given.text', { date: day(consent.given_at), agency: consent.partner.name, phone: consent.formatted_phone, topics })}</p>
      <p>{t('given.from', { phone: consent.partner.formatted_phone })}</p>
      <details>
        <summary>{t('given.words')}</summary>
        <div lang={consent.locale}>
          {consent.text.split('\n\n').map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </details>
      {canStop ? (
        <Form method="post">
          <input type="hidden" name="intent" value="stop" />
          <p id="medicare-stop-hint">{t('given.stopHint')}</p>
          <div className="button-row">
            <SubmitButton className="button" pending="working" aria-describedby="medicare-stop-hint">
              {t('given.stop')}
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </section>
  )
}

/** A phone number that never breaks across lines (non-breaking hyphens). */
const unbroken = (number: string) => number.replace(/-/g, '\u2011')

/** The anti-scam line, and free, unbiased help from Medicare and the state (every state of the page). */
export function MedicareHelp() {
  const { t } = useTranslation('medicare')
  return (
    <>
      <p className="notice" data-testid="medicare-scam">
        {t('scam')}
      </p>
      <section aria-labelledby="medicare-help">
        <h2 id="medicare-help">{t('help.heading')}</h2>
        <p>{t('help.text')}</p>
        <ul>
          <li>
            <a href="https://www.medicare.gov/" rel="noopener">
              {t('help.website')}
            </a>
          </li>
          <li>
            {t('help.phone')} <a href="tel:+18006334227">{unbroken('1-800-633-4227')}</a>
          </li>
          <li>
            {t('help.tty')} <a href="tel:+18774862048">{unbroken('1-877-486-2048')}</a>
          </li>
          <li>
            <a href="https://www.shiphelp.org/" rel="noopener">
              {t('help.ship')}
            </a>
          </li>
        </ul>
      </section>
    </>
  )
}

import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { displayReferralCode } from '#contract/referral-code.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { ChoiceGroup } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formText } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { shareTexts } from '#app/utils/referral-share.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * `/referrals` (spec §2, issue 33 §1, decision 087): the member's invite link and short code, an
 * email and a text message in their language, ready in their own apps (`mailto:`, `sms:`) and
 * shown so they can be copied, with JavaScript the phone's share sheet too; how many opened the
 * link, joined, and came to a first activity; and whether the referral banner shows their first
 * name (off until they say so). Circle 55 never sends these on the member's behalf.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const t = await getT(request, context, 'referrals')
  // The `referrals` flag off for the member (decision 087): the API answers 404, and so does the page.
  const summary = await getApi(request, context).referrals.summary().catch(notFoundOnMissing)
  return { title: t('title'), description: t('description'), summary, firstName: user.first_name }
}

/** The one form: whether the banner names the member (a checkbox sends `on` when ticked). */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const form = await request.formData()
  if (formText(form, 'intent') !== 'name') throw data({ error: 'Unknown intent' }, { status: 400 })
  await getApi(request, context)
    .referrals.saveSettings(formText(form, 'show_first_name') === 'on')
    .catch(notFoundOnMissing)
  return redirectWithToast(context, '/referrals', 'referrals:name.saved')
}

export default function Referrals() {
  const { summary, firstName } = useLoaderData<typeof loader>()
  const { t } = useTranslation('referrals')
  const share = shareTexts(t, summary)
  return (
    <div className="prose">
      <h1>{t('title')}</h1>
      <p className="lead">{t('intro')}</p>
      <section aria-labelledby="link-title">
        <h2 id="link-title">{t('link.title')}</h2>
        <p>
          <a href={summary.link} data-testid="invite-link">
            <BreakableText text={summary.link} />
          </a>
        </p>
        <p>{t('link.code', { code: displayReferralCode(summary.code) })}</p>
      </section>
      <section aria-labelledby="share-title">
        <h2 id="share-title">{t('share.title')}</h2>
        <ul className="actions" role="list">
          <ShareSheet title={share.emailSubject} text={share.text} />
          <li>
            <a href={share.mailto} className="button button--secondary">
              {t('share.email')}
            </a>
          </li>
          <li>
            <a href={share.sms} className="button button--secondary">
              {t('share.sms')}
            </a>
          </li>
        </ul>
        <p>{t('share.shown')}</p>
        <h3>{t('share.emailTitle')}</h3>
        <blockquote className="share-text" data-testid="share-email">
          <p>{t('share.subjectLabel', { subject: share.emailSubject })}</p>
          {share.emailBody.map((paragraph) => (
            <p key={paragraph}>
              <BreakableText text={paragraph} />
            </p>
          ))}
        </blockquote>
        <h3>{t('share.smsTitle')}</h3>
        <blockquote className="share-text" data-testid="share-sms">
          <p>
            <BreakableText text={share.text} />
          </p>
        </blockquote>
      </section>
      <section aria-labelledby="counts-title">
        <h2 id="counts-title">{t('counts.title')}</h2>
        <dl className="details" data-testid="referral-counts">
          <dt>{t('counts.clicks')}</dt>
          <dd>{summary.clicks}</dd>
          <dt>{t('counts.joined')}</dt>
          <dd>{summary.joined}</dd>
          <dt>{t('counts.attended')}</dt>
          <dd>{summary.attended}</dd>
        </dl>
        <p>{t('counts.hint')}</p>
      </section>
      <Form method="post">
        <input type="hidden" name="intent" value="name" />
        <ChoiceGroup
          id="show-first-name"
          legend={t('name.legend')}
          hint={t('name.hint', { name: firstName ?? t('common:member.generic') })}
          name="show_first_name"
          type="checkbox"
          options={[{ value: 'on', label: t('name.option') }]}
          defaultValue={summary.show_first_name ? ['on'] : []}
        />
        <SubmitButton pending="saving" className="button button--secondary">
          {t('name.save')}
        </SubmitButton>
      </Form>
    </div>
  )
}

/** With JavaScript, on a phone that has one, the share sheet (the member picks the app); without, the plain links beside it. */
function ShareSheet({ title, text }: { title: string; text: string }) {
  const { t } = useTranslation('referrals')
  const hydrated = useHydrated()
  if (!hydrated || typeof navigator === 'undefined' || typeof navigator.share !== 'function')
    return null
  return (
    <li>
      <button
        type="button"
        className="button"
        onClick={() => {
          // Closing the sheet rejects the promise: nothing to say.
          navigator.share({ title, text }).catch(() => undefined)
        }}
      >
        {t('share.button')}
      </button>
    </li>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  pageTitle(matches, loaded?.title, loaded?.description)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

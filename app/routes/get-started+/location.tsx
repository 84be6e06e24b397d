import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CitySearch } from '#app/components/city-search.tsx'
import { ErrorSummary } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnboardingProgress } from '#app/components/onboarding-progress.tsx'
import { requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { placeFromAddress } from '#app/utils/explore.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formText } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { nextOnboardingStep } from '#app/utils/onboarding.ts'
import { continueOnboarding } from '#app/utils/onboarding.server.ts'
import { resolveCity } from '#app/utils/place.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * Onboarding step 2 (spec §2 "location permission", issue 13 §6): the member's home city, which
 * Members and Explore start from. With JavaScript the browser's location gives the nearest city
 * (refused: the spec §8 message and the city of the connection); without it, the city of the
 * connection is offered and any city can be typed.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const t = await getT(request, context, 'onboarding')
  const guess = user.city ? null : await placeFromAddress(request, context)
  return {
    title: t('location.title'),
    returnTo: returnToFrom(request),
    city: user.city ? { label: user.city, id: null } : guess ? { label: guess.label, id: guess.id } : null,
    guessed: Boolean(guess),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const form = await request.formData()
  if (form.get('intent') === 'skip') return continueOnboarding(request, context, nextOnboardingStep('location'))
  const typed = formText(form, 'q')
  const place = await resolveCity(request, context, { id: formText(form, 'place'), text: typed })
  if (!place) return refusedForm(context, { typed, error: typed ? 'common:errors.unknown_place' : 'onboarding:location.required' }, 400)
  return continueOnboarding(request, context, nextOnboardingStep('location'), { city: place.id })
}

export default function Location() {
  const { city, guessed, returnTo } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()
  const { t } = useTranslation('onboarding')
  const errors = failed ? [failed.error] : null
  return (
    <div className="form">
      <OnboardingProgress page="location" returnTo={returnTo} />
      <h1>{t('location.title')}</h1>
      <ErrorSummary errors={failed ? [{ fieldId: 'city-input', message: failed.error }] : []} />
      <p>{t('location.intro')}</p>
      {guessed && !failed ? <p>{t('location.guessed')}</p> : null}
      <Form method="post">
        <CitySearch
          inputId="city-input"
          label={t('location.field')}
          hint={t('location.hint')}
          errors={errors}
          defaultLabel={failed?.typed ?? city?.label ?? ''}
          defaultPlaceId={failed ? null : (city?.id ?? null)}
        />
        <div className="button-row">
          <SubmitButton pending="saving" name="intent" value="save" className="button">
            {t('location.submit')}
          </SubmitButton>
          <SubmitButton pending="working" name="intent" value="skip" className="button button--secondary">
            {t('progress.skip')}
          </SubmitButton>
        </div>
      </Form>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

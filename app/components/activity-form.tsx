import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useRootData } from '#app/utils/root-data.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { useZodForm } from '#app/utils/use-zod-form.ts'
import { activityFieldOrder, activityFormSchema, withStartTime } from '#app/utils/activity-schema.ts'
import type { Place } from '#app/utils/place.ts'
import { CitySearch } from './city-search.tsx'
import { ErrorSummary, summaryFrom } from './error-summary.tsx'
import { StartTimeField } from './start-time-field.tsx'
import { ChoiceGroup, FieldErrors, TextField } from './ui/field.tsx'
import { SubmitButton } from './ui/submit-button.tsx'

export interface ActivityFormDefaults {
  title?: string
  description?: string
  venueType?: 'in_person' | 'online'
  place?: { id: string; label: string } | null
  address?: string
  url?: string
  startDate?: string
  startTime?: string
  maxAttendees?: string
  ticketUrl?: string
  noShowFee?: string
  isHostless?: boolean
  isPremium?: boolean
  hasCover?: boolean
}

/** Create, edit and duplicate: one form, one schema (spec §5), working without JavaScript. */
export function ActivityForm({
  lastResult,
  matches,
  defaults,
  isAdmin,
  submitLabel,
}: {
  lastResult?: SubmissionResult<string[]> | null
  matches: Place[]
  defaults: ActivityFormDefaults
  isAdmin: boolean
  submitLabel: string
}) {
  const { t } = useTranslation('activities')
  const payments = useRootData()?.payments !== false
  const [form, fields] = useZodForm({
    id: 'activity',
    lastResult,
    schema: activityFormSchema,
    prepare: withStartTime,
    defaultValue: {
      title: defaults.title,
      description: defaults.description,
      venueType: defaults.venueType,
      place: defaults.place?.id,
      address: defaults.address,
      url: defaults.url,
      startDate: defaults.startDate,
      startTime: defaults.startTime,
      maxAttendees: defaults.maxAttendees,
      ticketUrl: defaults.ticketUrl,
      noShowFee: defaults.noShowFee,
    },
  })
  const [venue, setVenue] = useState(String(fields.venueType.initialValue ?? defaults.venueType ?? ''))
  // Without JavaScript both the location and the link stay visible: the radio cannot reveal them.
  const hydrated = useHydrated()
  const errors: Record<string, string[] | undefined> = Object.fromEntries(
    activityFieldOrder.map((name) => [name, fields[name as keyof typeof fields]?.errors]),
  )
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
  const placeLabel = str(fields.q.initialValue) ?? defaults.place?.label ?? ''
  return (
    <>
      <ErrorSummary errors={summaryFrom(errors, activityFieldOrder)} formErrors={form.errors} />
      <Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
        <TextField id="title" name="title" label={t('form.title')} required defaultValue={str(fields.title.initialValue)} errors={fields.title.errors} maxLength={120} />
        <div className={fields.description.errors?.length ? 'field field--error' : 'field'}>
          <label htmlFor="description">{t('form.description')}</label>
          <span className="hint" id="description-hint">
            {t('form.descriptionHint')}
          </span>
          <FieldErrors id="description-error" errors={fields.description.errors} />
          <textarea id="description" name="description" rows={6} defaultValue={str(fields.description.initialValue)} aria-describedby="description-hint" />
        </div>
        <div onChange={(event) => setVenue((event.target as HTMLInputElement).value)}>
          <ChoiceGroup
            id="venueType"
            name="venueType"
            type="radio"
            legend={t('form.venueType')}
            options={[
              { value: 'in_person', label: t('form.inPerson') },
              { value: 'online', label: t('form.online') },
            ]}
            defaultValue={str(fields.venueType.initialValue) ?? defaults.venueType}
            errors={fields.venueType.errors}
          />
        </div>
        <fieldset className="field" hidden={hydrated && venue === 'online'} id="place">
          <legend>{t('form.location')}</legend>
          <FieldErrors id="place-error" errors={fields.place.errors} />
          {matches.length > 0 ? (
            <ChoiceGroup id="place-choice" name="place" type="radio" legend={t('form.pickCity')} options={matches.map((match) => ({ value: match.id, label: match.label }))} />
          ) : (
            <CitySearch key={placeLabel} defaultLabel={placeLabel} defaultPlaceId={str(fields.place.initialValue) ?? defaults.place?.id ?? null} />
          )}
          <TextField id="address" name="address" label={t('form.address')} hint={t('form.addressHint')} autoComplete="address-line1" defaultValue={str(fields.address.initialValue)} errors={fields.address.errors} />
        </fieldset>
        <div hidden={hydrated && venue === 'in_person'}>
          <TextField id="url" name="url" type="url" label={t('form.url')} hint={t('form.urlHint')} defaultValue={str(fields.url.initialValue)} errors={fields.url.errors} inputMode="url" />
        </div>
        <TextField id="startDate" name="startDate" type="date" label={t('form.startDate')} required defaultValue={str(fields.startDate.initialValue)} errors={fields.startDate.errors} />
        <StartTimeField
          hour={str(fields.startHour.initialValue) ?? str(fields.startTime.initialValue)?.slice(0, 2)}
          minute={str(fields.startMinute.initialValue) ?? str(fields.startTime.initialValue)?.slice(3, 5)}
          errors={fields.startTime.errors}
        />
        <TextField id="maxAttendees" name="maxAttendees" type="number" min={1} inputMode="numeric" label={t('form.capacity')} hint={t('form.capacityHint')} defaultValue={str(fields.maxAttendees.initialValue)} errors={fields.maxAttendees.errors} />
        <TextField id="ticketUrl" name="ticketUrl" type="url" inputMode="url" label={t('form.ticketUrl')} hint={t('form.ticketUrlHint')} defaultValue={str(fields.ticketUrl.initialValue)} errors={fields.ticketUrl.errors} />
        {/* No fee is offered while payments are off (decision 073). */}
        {payments ? (
          <TextField id="noShowFee" name="noShowFee" inputMode="decimal" label={t('form.noShowFee')} hint={t('form.noShowFeeHint')} defaultValue={str(fields.noShowFee.initialValue)} errors={fields.noShowFee.errors} />
        ) : null}
        <TextField
          id="cover"
          name="cover"
          type="file"
          accept="image/jpeg,image/png"
          label={t('form.cover')}
          hint={defaults.hasCover ? t('form.coverKeep') : t('form.coverHint')}
          errors={errors.cover}
        />
        {isAdmin ? (
          <fieldset className="field">
            <legend>{t('form.adminOptions')}</legend>
            {/* Lets the page show these again if the database is down when the form is sent. */}
            <input type="hidden" name="adminOptions" value="shown" />
            <div className="choice">
              <input id="isHostless" type="checkbox" name="isHostless" defaultChecked={lastResult ? fields.isHostless.initialValue === 'on' : defaults.isHostless} />
              <label htmlFor="isHostless">{t('form.isHostless')}</label>
            </div>
            <div className="choice">
              <input
                id="isPremium"
                type="checkbox"
                name="isPremium"
                defaultChecked={lastResult ? fields.isPremium.initialValue === 'on' : defaults.isPremium}
                aria-describedby="isPremium-hint"
              />
              <label htmlFor="isPremium">{t('form.isPremium')}</label>
            </div>
            <p className="hint" id="isPremium-hint">
              {t('form.isPremiumHint')}
            </p>
          </fieldset>
        ) : null}
        <div className="button-row">
          <SubmitButton pending="saving" className="button">
            {submitLabel}
          </SubmitButton>
        </div>
      </Form>
    </>
  )
}

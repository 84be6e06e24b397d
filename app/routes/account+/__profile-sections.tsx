import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { Form, Link, useActionData } from '@remix-run/react'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { CitySearch } from '#app/components/city-search.tsx'
import type { SummaryError } from '#app/components/error-summary.tsx'
import { ChoiceGroup, FieldErrors, SelectField, TextField } from '#app/components/ui/field.tsx'
import { employments, familyMembers, joinReasons, relationshipStatuses } from '#contract/enums.ts'
import type { User } from '#contract/users.ts'
import { interestGroupNames, interestGroups, maxPromptAnswerLength, nearbyVisibilities, profilePrompts } from '#contract/profile.ts'
import { languageNames, languages } from '#app/utils/i18n.ts'
import { genderChoices, preferNotToSay, promptRows, sectionAnchor, type ProfileSection } from '#app/utils/profile-sections.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * The profile's sections. Each is the one form of its own page, `/account/edit/{section}`: a
 * hidden `intent`, its fields, one Save button and a way back without saving; the photo is the
 * one form of `/account/edit` itself (`__profile-photo.tsx`, apart: only that page takes a file). One form to a page, so nothing typed elsewhere can be lost
 * by saving (issue 29 §4). Errors come from the server's answer (the action checks the section
 * with its schema), so the page behaves the same with JavaScript on and off; the summary at the
 * top lists them.
 */

export interface SectionProps {
  /** The member, or null when the page is drawn during an outage from what they sent. */
  user: User | null
}

/** A conform field name (`prompts[1].answer`, `q`) → the id of its element on the page. */
export function fieldIdOf(name: string) {
  if (name === 'q') return 'city'
  return name.replace(/\[(\d+)\]\.?/g, '-$1-').replace(/-$/, '')
}

/** A refused form's errors for the summary at the top of its page, each linked to its field. */
export function summaryOf(error: Record<string, string[] | null> | undefined) {
  const errors: SummaryError[] = []
  const formErrors: string[] = []
  for (const [name, messages] of Object.entries(error ?? {})) {
    for (const message of messages ?? []) {
      if (name === '') formErrors.push(message)
      else errors.push({ fieldId: fieldIdOf(name), message })
    }
  }
  return { errors, formErrors }
}

export type ActionAnswer = { intent: ProfileSection | 'photo'; result: SubmissionResult<string[]> } | undefined

function useSectionForm(section: ProfileSection, defaultValue: Record<string, unknown>) {
  const answer = useActionData<ActionAnswer>()
  const [form] = useForm({
    id: `profile-${section}`,
    lastResult: answer?.intent === section ? answer.result : undefined,
    defaultValue: defaultValue as never,
    // Checked by the server only: its answer fills the summary at the top, with or without JavaScript.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onSubmit',
  })
  const initial = (form.initialValue ?? {}) as Record<string, unknown>
  return {
    form,
    /** What the field shows: what the member last sent, else what is saved. */
    value: (name: string) => initial[name],
    text: (name: string) => (typeof initial[name] === 'string' ? initial[name] : ''),
    list: (name: string) => {
      const value = initial[name]
      return Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : []
    },
    errors: (name: string) => form.allErrors[name],
  }
}

function Section({ section, form, submit, children }: { section: ProfileSection; form: ReturnType<typeof useSectionForm>['form']; submit: string; children: ReactNode }) {
  const { t } = useTranslation('profile')
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <input type="hidden" name="intent" value={section} />
      {children}
      <div className="button-row">
        <SubmitButton pending="saving" className="button">
          {submit}
        </SubmitButton>
        <Link to={`/account/edit#${sectionAnchor(section)}`} className="button button--secondary">
          {t('edit.back')}
        </Link>
      </div>
    </Form>
  )
}

export function NameSection({ user }: SectionProps) {
  const { t } = useTranslation('profile')
  const { t: onboarding } = useTranslation('onboarding')
  const section = useSectionForm('name', { firstName: user?.first_name ?? '', lastName: user?.last_name ?? '' })
  return (
    <Section section="name" form={section.form} submit={t('edit.name.submit')}>
      <p className="hint">{t('edit.name.hint')}</p>
      <TextField id="firstName" name="firstName" label={onboarding('fields.firstName')} autoComplete="given-name" required defaultValue={section.text('firstName')} errors={section.errors('firstName')} />
      <TextField id="lastName" name="lastName" label={onboarding('fields.lastName')} autoComplete="family-name" required defaultValue={section.text('lastName')} errors={section.errors('lastName')} />
    </Section>
  )
}

export function AboutSection({ user }: SectionProps) {
  const { t } = useTranslation('profile')
  const { t: onboarding } = useTranslation('onboarding')
  const section = useSectionForm('about', {
    // A member who has been through onboarding and gave no gender chose "Prefer not to say".
    gender: user?.gender ?? (user?.onboarded ? preferNotToSay : ''),
    relationship: user?.relationship ?? '',
    employment: user?.employment ?? '',
    family: user?.family ?? [],
    reasons: user?.join_reasons ?? [],
  })
  return (
    <Section section="about" form={section.form} submit={t('edit.about.submit')}>
      <ChoiceGroup
        id="gender"
        name="gender"
        type="radio"
        legend={onboarding('fields.gender')}
        options={genderChoices.map((value) => ({ value, label: onboarding(`gender.${value}`) }))}
        defaultValue={section.text('gender')}
        errors={section.errors('gender')}
      />
      <SelectField
        id="relationship"
        name="relationship"
        label={t('edit.about.relationship')}
        placeholder={t('edit.notChosen')}
        options={relationshipStatuses.map((value) => ({ value, label: t(`relationship.${value}`) }))}
        defaultValue={section.text('relationship')}
        errors={section.errors('relationship')}
      />
      <SelectField
        id="employment"
        name="employment"
        label={t('edit.about.employment')}
        placeholder={t('edit.notChosen')}
        options={employments.map((value) => ({ value, label: t(`employment.${value}`) }))}
        defaultValue={section.text('employment')}
        errors={section.errors('employment')}
      />
      <ChoiceGroup
        id="family"
        name="family"
        type="checkbox"
        legend={t('edit.about.family')}
        hint={t('edit.about.familyHint')}
        options={familyMembers.map((value) => ({ value, label: t(`family.${value}`) }))}
        defaultValue={section.list('family')}
        errors={section.errors('family')}
      />
      <ChoiceGroup
        id="reasons"
        name="reasons"
        type="checkbox"
        legend={onboarding('fields.reasons')}
        hint={onboarding('fields.reasonsHint')}
        options={joinReasons.map((value) => ({ value, label: onboarding(`reasons.${value}`) }))}
        defaultValue={section.list('reasons')}
        errors={section.errors('reasons')}
      />
    </Section>
  )
}

export function InterestsSection({ user }: SectionProps) {
  const { t } = useTranslation('profile')
  const section = useSectionForm('interests', { interests: user?.interests ?? [] })
  const chosen = new Set(section.list('interests'))
  const errors = section.errors('interests')
  return (
    <Section section="interests" form={section.form} submit={t('edit.interests.submit')}>
      <div
        id="interests"
        role="group"
        tabIndex={-1}
        aria-labelledby="interests-heading"
        aria-describedby={errors?.length ? 'interests-hint interests-error' : 'interests-hint'}
        className={errors?.length ? 'field field--error' : 'field'}
      >
        <span id="interests-hint" className="hint">
          {t('edit.interests.hint')}
        </span>
        <FieldErrors id="interests-error" errors={errors} />
        {interestGroupNames.map((group) => (
          <fieldset key={group} className="field">
            <legend>{t(`interestGroups.${group}`)}</legend>
            <div className="choices">
              {interestGroups[group].map((interest) => (
                <div className="choice" key={interest}>
                  <input id={`interest-${interest}`} type="checkbox" name="interests" value={interest} defaultChecked={chosen.has(interest)} />
                  <label htmlFor={`interest-${interest}`}>{t(`interests.${interest}`)}</label>
                </div>
              ))}
            </div>
          </fieldset>
        ))}
      </div>
    </Section>
  )
}

export function PromptsSection({ user }: SectionProps) {
  const { t } = useTranslation('profile')
  const saved = user?.prompts ?? []
  const section = useSectionForm('prompts', {
    prompts: Array.from({ length: promptRows }, (_, index) => ({ prompt: saved[index]?.prompt ?? '', answer: saved[index]?.answer ?? '' })),
  })
  const rows = section.value('prompts')
  const row = (index: number) => {
    const value = Array.isArray(rows) ? (rows[index] as { prompt?: unknown; answer?: unknown } | undefined) : undefined
    return { prompt: typeof value?.prompt === 'string' ? value.prompt : '', answer: typeof value?.answer === 'string' ? value.answer : '' }
  }
  return (
    <Section section="prompts" form={section.form} submit={t('edit.prompts.submit')}>
      <p className="hint">{t('edit.prompts.hint')}</p>
      {Array.from({ length: promptRows }, (_, index) => (
        <PromptRow key={index} index={index} prompt={row(index).prompt} answer={row(index).answer} promptErrors={section.errors(`prompts[${index}].prompt`)} answerErrors={section.errors(`prompts[${index}].answer`)} />
      ))}
    </Section>
  )
}

/**
 * One question and its answer. The answer's label repeats the question chosen in full: a select
 * cannot wrap, so with large text on a narrow screen a long question may not fit in it.
 */
function PromptRow({ index, prompt, answer, promptErrors, answerErrors }: { index: number; prompt: string; answer: string; promptErrors?: string[]; answerErrors?: string[] }) {
  const { t } = useTranslation('profile')
  const [chosen, setChosen] = useState(prompt)
  const known = (profilePrompts as readonly string[]).includes(chosen)
  return (
    <div className="prompt-row">
      <SelectField
        id={`prompts-${index}-prompt`}
        name={`prompts[${index}].prompt`}
        label={t('edit.prompts.question', { number: index + 1 })}
        placeholder={t('edit.prompts.noQuestion')}
        options={profilePrompts.map((value) => ({ value, label: t(`prompts.${value}`) }))}
        defaultValue={prompt}
        errors={promptErrors}
        onChange={(event) => setChosen(event.currentTarget.value)}
      />
      <AnswerField
        index={index}
        label={known ? t('edit.prompts.answerTo', { question: t(`prompts.${chosen}`) }) : t('edit.prompts.answer', { number: index + 1 })}
        defaultValue={answer}
        errors={answerErrors}
      />
    </div>
  )
}

/** A prompt's answer: a text area with its limit; with JavaScript, a count of the characters used. */
function AnswerField({ index, label, defaultValue, errors }: { index: number; label: string; defaultValue: string; errors?: string[] }) {
  const { t } = useTranslation('profile')
  const enhanced = useHydrated()
  const [count, setCount] = useState(defaultValue.length)
  const id = `prompts-${index}-answer`
  const describedBy = [`${id}-hint`, enhanced ? `${id}-count` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(' ')
  return (
    <div className={errors?.length ? 'field field--error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <span id={`${id}-hint`} className="hint">
        {t('edit.prompts.answerHint')}
      </span>
      <FieldErrors id={`${id}-error`} errors={errors} />
      <textarea id={id} name={`prompts[${index}].answer`} rows={4} defaultValue={defaultValue} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy} onInput={(event) => setCount(event.currentTarget.value.length)} />
      {enhanced ? (
        <span id={`${id}-count`} className={count > maxPromptAnswerLength ? 'hint field-error' : 'hint'} aria-live="polite">
          {t('edit.prompts.count', { count })}
        </span>
      ) : null}
    </div>
  )
}

export function CitySection({ user }: SectionProps) {
  const { t } = useTranslation('profile')
  // The gazetteer's label ("Portland, OR", decision 023).
  const current = user?.city ?? ''
  const section = useSectionForm('city', { q: current })
  const typed = section.text('q')
  return (
    <Section section="city" form={section.form} submit={t('edit.city.submit')}>
      {current ? <p>{t('edit.city.current', { city: current })}</p> : null}
      <CitySearch key={typed} inputId="city" label={t('edit.city.label')} hint={t('edit.city.hint')} defaultLabel={typed} defaultPlaceId={null} errors={section.errors('q')} />
    </Section>
  )
}

export function PhoneSection({ user }: SectionProps) {
  const { t } = useTranslation('profile')
  const { t: onboarding } = useTranslation('onboarding')
  const section = useSectionForm('phone', { phone: user?.formatted_phone ?? '' })
  return (
    <Section section="phone" form={section.form} submit={t('edit.phone.submit')}>
      <TextField id="phone" name="phone" label={t('edit.phone.label')} hint={onboarding('fields.phoneHint')} autoComplete="tel-national" inputMode="tel" defaultValue={section.text('phone')} errors={section.errors('phone')} />
    </Section>
  )
}

export function PrivacySection({ user }: SectionProps) {
  const { t } = useTranslation(['profile', 'blocking'])
  const section = useSectionForm('privacy', {
    showAge: user?.show_age ? 'yes' : 'no',
    nearbyVisibility: user?.nearby_visibility ?? 'everyone',
    blockedInSearch: user?.show_blocked_in_chat_search ? 'show' : 'hide',
  })
  return (
    <Section section="privacy" form={section.form} submit={t('edit.privacy.submit')}>
      <ChoiceGroup
        id="showAge"
        name="showAge"
        type="radio"
        legend={t('edit.privacy.age')}
        hint={t('edit.privacy.ageHint')}
        options={(['yes', 'no'] as const).map((value) => ({ value, label: t(`showAge.${value}`) }))}
        defaultValue={section.text('showAge')}
        errors={section.errors('showAge')}
      />
      <ChoiceGroup
        id="nearbyVisibility"
        name="nearbyVisibility"
        type="radio"
        legend={t('edit.privacy.nearby')}
        hint={t('edit.privacy.nearbyHint')}
        options={nearbyVisibilities.map((value) => ({ value, label: t(`nearbyVisibility.${value}`) }))}
        defaultValue={section.text('nearbyVisibility')}
        errors={section.errors('nearbyVisibility')}
      />
      <ChoiceGroup
        id="blockedInSearch"
        name="blockedInSearch"
        type="radio"
        legend={t('blocking:privacy.legend')}
        hint={t('blocking:privacy.hint')}
        options={(['hide', 'show'] as const).map((value) => ({ value, label: t(`blocking:privacy.${value}`) }))}
        defaultValue={section.text('blockedInSearch')}
        errors={section.errors('blockedInSearch')}
      />
    </Section>
  )
}

export function LanguageSection({ user }: SectionProps) {
  const { t, i18n } = useTranslation('profile')
  const section = useSectionForm('language', { language: user?.locale ?? i18n.language })
  return (
    <Section section="language" form={section.form} submit={t('edit.language.submit')}>
      <ChoiceGroup
        id="language"
        name="language"
        type="radio"
        legend={t('edit.language.label')}
        options={languages.map((value) => ({ value, label: languageNames[value] }))}
        defaultValue={section.text('language')}
        errors={section.errors('language')}
      />
    </Section>
  )
}

/** "Saved", beside the part of the profile the member has just saved (issue 29 §4). */
export function SavedNote({ text }: { text: string }) {
  return (
    <p className="saved-note">
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
        <path d="M4 12.5 9.5 18 20 6" />
      </svg>
      {text}
    </p>
  )
}

const sectionForms: Record<ProfileSection, (props: SectionProps) => ReactNode> = {
  name: NameSection,
  about: AboutSection,
  interests: InterestsSection,
  prompts: PromptsSection,
  city: CitySection,
  phone: PhoneSection,
  privacy: PrivacySection,
  language: LanguageSection,
}

/** The form of `/account/edit/{section}`. */
export function SectionForm({ section, user }: { section: ProfileSection; user: User | null }) {
  const Fields = sectionForms[section]
  return <Fields user={user} />
}

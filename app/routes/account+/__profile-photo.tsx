import { getFormProps, useForm } from '@conform-to/react'
import { Form, useActionData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PhotoField } from '#app/components/photo-field.tsx'
import { sectionAnchor } from '#app/utils/profile-sections.ts'
import { SavedNote, type ActionAnswer, type SectionProps } from './__profile-sections.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/** The photo section's props: it is a part of `/account/edit`, under its own heading. */
interface PhotoSectionProps extends SectionProps {
  heading: string
  /** The message of a photo just saved or removed, shown beside it. */
  saved?: string | null
}

/**
 * The profile photo: its own multipart form, checked as in onboarding (one face, appropriate
 * content); "Remove my photo" is a second small form, shown when there is a photo.
 */
export function PhotoSection({ user, heading, saved }: PhotoSectionProps) {
  const { t } = useTranslation(['profile', 'photo'])
  const answer = useActionData<ActionAnswer>()
  const [form] = useForm({
    id: 'profile-photo',
    lastResult: answer?.intent === 'photo' ? answer.result : undefined,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onSubmit',
  })
  const photoUrl = user?.avatar?.url ?? null
  return (
    <section id={sectionAnchor('photo')} aria-labelledby="photo-heading" className="profile-section" tabIndex={-1}>
      <h2 id="photo-heading">{heading}</h2>
      {saved ? <SavedNote text={saved} /> : null}
      <p>{t('edit.photo.intro')}</p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate>
        <PhotoField id="photo" name="photo" label={photoUrl ? t('edit.photo.chooseNew') : t('edit.photo.choose')} hint={t('photo:field.hint')} errors={form.allErrors.photo} currentUrl={photoUrl} />
        <div className="button-row">
          <SubmitButton pending="uploading" className="button">
            {t('edit.photo.submit')}
          </SubmitButton>
        </div>
      </Form>
      {photoUrl ? (
        <Form method="post" className="button-row">
          <SubmitButton pending="deleting" name="intent" value="removePhoto" className="button button--secondary">
            {t('edit.photo.remove')}
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  )
}

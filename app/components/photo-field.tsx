import { useEffect, useRef, useState, type ChangeEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { FieldErrors } from './ui/field.tsx'

/**
 * Which files the picker offers. Listing JPEG and PNG (not `image/*`) makes an iPhone convert its
 * HEIC photos to JPEG as it hands them over, and phones still offer the camera as well as the
 * photo library. No `capture` attribute: on many Android phones it opens the camera only, and a
 * member who has a good photo already could not choose it (decision 024).
 */
export const PHOTO_ACCEPT = 'image/jpeg,image/png'

interface PhotoFieldProps {
  id: string
  name: string
  label: string
  hint?: string
  errors?: string[] | null
  /** The photo the member has now, shown until they choose another. */
  currentUrl?: string | null
}

/**
 * A file input for a profile photo, labelled, with its hint and error next to it
 * (aria-describedby). Without JavaScript it is a plain file input in a multipart form. With
 * JavaScript, the chosen photo is previewed as a centred square before it is sent; the server then
 * centres the square on the face it finds, so the saved photo can be framed a little differently.
 */
export function PhotoField({ id, name, label, hint, errors, currentUrl }: PhotoFieldProps) {
  const { t } = useTranslation('photo')
  const [preview, setPreview] = useState<string | null>(null)
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview])
  // Once the photo is saved and the page stays (the profile editor), the page has a new current
  // photo: that is shown, cropped on the face, and the field is empty again (issue 29 §2). Only on
  // a change: a photo chosen before the page's scripts started is kept.
  const input = useRef<HTMLInputElement>(null)
  const shownUrl = useRef(currentUrl)
  useEffect(() => {
    if (shownUrl.current === currentUrl) return
    shownUrl.current = currentUrl
    setPreview(null)
    if (input.current) input.current.value = ''
  }, [currentUrl])

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0]
    setPreview(file && file.type.startsWith('image/') ? URL.createObjectURL(file) : null)
  }

  const hintId = hint ? `${id}-hint` : undefined
  const errorId = errors?.length ? `${id}-error` : undefined
  const previewNoteId = preview ? `${id}-preview-note` : undefined
  const shown = preview ?? currentUrl ?? null
  return (
    <div className={errors?.length ? 'field field--error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={hintId} className="hint">
          {hint}
        </span>
      ) : null}
      {shown ? (
        <figure className="photo-field__preview">
          <img src={shown} alt={preview ? t('field.previewAlt') : t('field.currentAlt')} width={200} height={200} />
          {preview ? <figcaption id={previewNoteId}>{t('field.previewNote')}</figcaption> : null}
        </figure>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
      <input
        ref={input}
        id={id}
        name={name}
        type="file"
        accept={PHOTO_ACCEPT}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={[hintId, errorId, previewNoteId].filter(Boolean).join(' ') || undefined}
        onChange={onChange}
      />
    </div>
  )
}

import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'

/** Errors arrive as translation keys (from the shared zod schema or the API mapping). */
export function FieldErrors({ id, errors }: { id: string; errors?: string[] | null }) {
  const { t } = useTranslation()
  if (!errors?.length) return null
  return (
    <span id={id} className="field-error">
      <span className="visually-hidden">{t('form.errorPrefix')} </span>
      {errors.map((error) => t(error)).join(' ')}
    </span>
  )
}

interface FieldProps {
  id: string
  label: ReactNode
  hint?: ReactNode
  errors?: string[] | null
}

/**
 * A field's label, hint and errors around its control; the control gets its id, whether it is
 * invalid, and what describes it (the hint, the errors), for `TextField` and `TextAreaField`.
 */
function FieldShell({ id, label, hint, errors, control }: FieldProps & { control: (described: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined }) => ReactNode }) {
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className={errors?.length ? 'field field--error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={hintId} className="hint">
          {hint}
        </span>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
      {control({ id, 'aria-invalid': errors?.length ? true : undefined, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined })}
    </div>
  )
}

export function TextField({ id, label, hint, errors, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return <FieldShell id={id} label={label} hint={hint} errors={errors} control={(described) => <input id={described.id} type="text" aria-invalid={described['aria-invalid']} aria-describedby={described['aria-describedby']} {...input} />} />
}

/** A text area labelled like `TextField`: its hint and errors described, its errors next to it. */
export function TextAreaField({ id, label, hint, errors, ...textarea }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <FieldShell id={id} label={label} hint={hint} errors={errors} control={(described) => <textarea {...described} {...textarea} />} />
}

export function SelectField({
  id,
  label,
  hint,
  errors,
  options,
  placeholder,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[]; placeholder?: string }) {
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className={errors?.length ? 'field field--error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={hintId} className="hint">
          {hint}
        </span>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
      <select
        id={id}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** A group of checkboxes or radios in a fieldset, with its legend, hint and errors. */
export function ChoiceGroup({
  id,
  legend,
  hint,
  errors,
  name,
  type,
  options,
  defaultValue,
  required,
}: {
  id: string
  legend: ReactNode
  hint?: ReactNode
  errors?: string[] | null
  name: string
  type: 'checkbox' | 'radio'
  options: { value: string; label: string }[]
  defaultValue?: string[] | string | null
  required?: boolean
}) {
  const selected = new Set(Array.isArray(defaultValue) ? defaultValue : defaultValue ? [defaultValue] : [])
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className={errors?.length ? 'field field--error' : 'field'}>
      <fieldset id={id} tabIndex={-1} aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}>
        <legend>{legend}</legend>
        {hint ? (
          <span id={hintId} className="hint">
            {hint}
          </span>
        ) : null}
        <FieldErrors id={`${id}-error`} errors={errors} />
        <div className="choices">
          {options.map((option, index) => (
            <div className="choice" key={option.value}>
              <input
                id={`${id}-${index}`}
                type={type}
                name={name}
                value={option.value}
                defaultChecked={selected.has(option.value)}
                required={type === 'radio' ? required : undefined}
              />
              <label htmlFor={`${id}-${index}`}>{option.label}</label>
            </div>
          ))}
        </div>
      </fieldset>
    </div>
  )
}

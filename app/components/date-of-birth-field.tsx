import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { birthYears, daysInMonth } from '#contract/birth-date.ts'
import { FieldErrors } from './ui/field.tsx'

/**
 * Spec §5 birth-date picker: month, a day list limited to that month (with JavaScript; the
 * server checks it too), and 45 years ending 55 years before this year, with the age note.
 */
export function DateOfBirthField({
  defaultValue,
  errors,
}: {
  defaultValue?: { month?: string; day?: string; year?: string }
  errors?: { month?: string[]; day?: string[]; year?: string[] }
}) {
  const { t, i18n } = useTranslation('auth')
  const [month, setMonth] = useState(defaultValue?.month ?? '')
  const [year, setYear] = useState(defaultValue?.year ?? '')
  const monthFormat = new Intl.DateTimeFormat(i18n.language, { month: 'long', timeZone: 'UTC' })
  const days = daysInMonth(Number(month) || 1, Number(year) || undefined)
  const allErrors = [...(errors?.month ?? []), ...(errors?.day ?? []), ...(errors?.year ?? [])]
  const invalid = (list?: string[]) => (list?.length ? true : undefined)
  return (
    <div className={allErrors.length ? 'field field--error' : 'field'}>
      <fieldset id="birthDate" tabIndex={-1} aria-describedby={['birthDate-hint', allErrors.length ? 'birthDate-error' : ''].filter(Boolean).join(' ')}>
        <legend>{t('fields.birthDate')}</legend>
        <span id="birthDate-hint" className="hint">
          {t('signUp.ageNote')}
        </span>
        <FieldErrors id="birthDate-error" errors={allErrors} />
        <div className="date-parts">
          <div className="date-part">
            <label htmlFor="birthMonth">{t('fields.month')}</label>
            <select id="birthMonth" name="birthMonth" autoComplete="bday-month" value={month} onChange={(event) => setMonth(event.target.value)} aria-invalid={invalid(errors?.month)}>
              <option value="">{t('fields.choose')}</option>
              {Array.from({ length: 12 }, (_, index) => (
                <option key={index + 1} value={String(index + 1)}>
                  {monthFormat.format(new Date(Date.UTC(2000, index, 1)))}
                </option>
              ))}
            </select>
          </div>
          <div className="date-part">
            <label htmlFor="birthDay">{t('fields.day')}</label>
            <select id="birthDay" name="birthDay" autoComplete="bday-day" defaultValue={defaultValue?.day ?? ''} aria-invalid={invalid(errors?.day)}>
              <option value="">{t('fields.choose')}</option>
              {Array.from({ length: days }, (_, index) => (
                <option key={index + 1} value={String(index + 1)}>
                  {index + 1}
                </option>
              ))}
            </select>
          </div>
          <div className="date-part">
            <label htmlFor="birthYear">{t('fields.year')}</label>
            <select id="birthYear" name="birthYear" autoComplete="bday-year" value={year} onChange={(event) => setYear(event.target.value)} aria-invalid={invalid(errors?.year)}>
              <option value="">{t('fields.choose')}</option>
              {birthYears().map((value) => (
                <option key={value} value={String(value)}>
                  {value}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
    </div>
  )
}

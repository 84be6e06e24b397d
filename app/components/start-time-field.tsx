import { useTranslation } from 'react-i18next'
import { startHours, startMinutes } from '#app/utils/activity-schema.ts'
import { FieldErrors } from './ui/field.tsx'

/**
 * Start time as an hour and minutes in 5-minute steps (spec §5), labelled in the 12- or 24-hour
 * convention of the page's language ("2 PM", "14 h", "14 uur": a translation, so the server and
 * every browser render the same text). Two plain selects: no JavaScript needed, nothing to mistype.
 */
export function StartTimeField({ hour, minute, errors }: { hour?: string; minute?: string; errors?: string[] }) {
  const { t } = useTranslation('activities')
  // The language's convention: "2 PM" (12-hour) or "14 h" / "14 uur" (24-hour).
  const clockTime = (hour: number) => (t('form.clock') === '12' ? `${hour % 12 || 12} ${t(hour < 12 ? 'form.am' : 'form.pm')}` : String(hour))
  const errorId = errors?.length ? 'startTime-error' : undefined
  const describedBy = ['startTime-hint', errorId].filter(Boolean).join(' ')
  return (
    <div className={errors?.length ? 'field field--error' : 'field'}>
      <fieldset id="startTime" tabIndex={-1} aria-describedby={describedBy}>
        <legend>{t('form.startTime')}</legend>
        <span className="hint" id="startTime-hint">
          {t('form.startTimeHint')}
        </span>
        <FieldErrors id="startTime-error" errors={errors} />
        <div className="date-parts">
          <div className="date-part">
            <label htmlFor="startHour">{t('form.hour')}</label>
            <select id="startHour" name="startHour" defaultValue={hour ?? ''} aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
              <option value="">{t('form.choose')}</option>
              {startHours.map((value) => (
                <option key={value} value={value}>
                  {t('form.hourOption', { time: clockTime(Number(value)) })}
                </option>
              ))}
            </select>
          </div>
          <div className="date-part">
            <label htmlFor="startMinute">{t('form.minutes')}</label>
            <select id="startMinute" name="startMinute" defaultValue={minute ?? ''} aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
              <option value="">{t('form.choose')}</option>
              {startMinutes.map((value) => (
                <option key={value} value={value}>
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

import { useTranslation } from 'react-i18next'
import { ratings } from '#contract/surveys.ts'
import { FieldErrors } from '#app/components/ui/field.tsx'

/**
 * A star rating that is five plain radio buttons (decision 046): a fieldset with its legend, each
 * radio labelled "4 stars", so it works with the arrow keys, a screen reader and without JavaScript.
 * The stars are drawn by CSS (app.css "Star rating"); the number stays visible beside each star.
 */
export function StarRating({
  name,
  legend,
  defaultValue,
  errors,
}: {
  name: string
  legend: string
  defaultValue: number
  errors?: string[] | null
}) {
  const { t } = useTranslation('survey')
  const errorId = errors?.length ? 'rating-error' : undefined
  return (
    <div className={errors?.length ? 'field field--error' : 'field'}>
      <fieldset id="rating" tabIndex={-1} className="star-rating" aria-describedby={errorId}>
        <legend>{legend}</legend>
        <FieldErrors id="rating-error" errors={errors} />
        <div className="star-rating__choices">
          {ratings.map((value) => (
            <div className="star-rating__choice" key={value}>
              <input
                id={`rating-${value}`}
                type="radio"
                name={name}
                value={value}
                defaultChecked={value === defaultValue}
              />
              <label htmlFor={`rating-${value}`}>
                <span className="star-rating__star" aria-hidden="true">
                  ★
                </span>
                <span className="star-rating__text">{t('rating.option', { count: value })}</span>
              </label>
            </div>
          ))}
        </div>
      </fieldset>
    </div>
  )
}

import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ratings } from '#contract/surveys.ts'
import { FieldErrors } from '#app/components/ui/field.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'

/** The sentence that says which rating will be sent; the form's button points at it (`aria-describedby`). */
export const ratingSummaryId = 'rating-summary'

/**
 * A star rating that is five plain radio buttons (decision 046): a fieldset with its legend, each
 * radio labelled "4 stars", so it works with the arrow keys, a screen reader and without JavaScript.
 * The stars are drawn by CSS (app.css "Star rating"); the number stays visible beside each star.
 *
 * Below the stars a sentence says which rating will be sent ("You are giving 5 stars out of 5"),
 * so the 5 chosen to start with (spec §9) is never sent without the member seeing it (issue 29
 * §4). Without JavaScript the page holds the five sentences and the stylesheet shows the one of
 * the checked star; with it, the one sentence follows the member's choice.
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
  const hydrated = useHydrated()
  const [chosen, setChosen] = useState(defaultValue)
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
                onChange={(event) => {
                  if (event.currentTarget.checked) setChosen(value)
                }}
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
        <p id={ratingSummaryId} className="star-rating__summary">
          {hydrated ? (
            <span className="star-rating__giving star-rating__giving--chosen">
              {t('rating.giving', { count: chosen })}
            </span>
          ) : (
            ratings.map((value) => (
              <span key={value} className={`star-rating__giving star-rating__giving--${value}`}>
                {t('rating.giving', { count: value })}
              </span>
            ))
          )}
        </p>
      </fieldset>
    </div>
  )
}

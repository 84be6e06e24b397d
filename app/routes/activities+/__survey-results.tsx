import { useTranslation } from 'react-i18next'
import type { SurveyResults as Results } from '#contract/surveys.ts'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'

/**
 * What attendees said (decision 046), on the host's view of a past activity: the average rating,
 * how many rated, and the comments without names.
 */
export function SurveyResults({ results }: { results: Results }) {
  const { t, i18n } = useTranslation('survey')
  const average =
    results.average_rating === null
      ? null
      : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
          results.average_rating,
        )
  return (
    <section aria-labelledby="survey-results" className="card survey-results">
      <h2 id="survey-results">{t('results.title')}</h2>
      {average === null ? (
        <p>{t('results.none')}</p>
      ) : (
        <>
          <p className="survey-results__average">
            {t('results.average', { average })} ·{' '}
            {t('results.count', { count: results.rating_count })}
          </p>
          {results.comments.length > 0 ? (
            <>
              <h3>{t('results.comments')}</h3>
              <p className="hint">{t('results.anonymous')}</p>
              <ul className="survey-comments" role="list">
                {results.comments.map((comment, index) => (
                  <li key={`${comment.created_at}-${index}`}>
                    <p className="survey-comments__rating">
                      {t('results.commentRating', { count: comment.rating })}
                    </p>
                    <p>
                      <BreakableText text={comment.feedback} />
                    </p>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </section>
  )
}

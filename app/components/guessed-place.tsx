import { useTranslation } from 'react-i18next'

/**
 * Says that a city was guessed from the visitor's internet address, with the credit the
 * DB-IP Lite data requires (CC BY 4.0: a link to DB-IP.com wherever a result is shown).
 */
export function GuessedPlace({ label }: { label: string }) {
  const { t } = useTranslation()
  return (
    <p className="hint">
      {t('location.guessed', { place: label })}{' '}
      <a href="https://db-ip.com" rel="noopener noreferrer">
        {t('location.attribution')}
      </a>
    </p>
  )
}

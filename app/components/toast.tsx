import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** Spec §9: toasts stay 10 seconds by default and can be dismissed; hovering or focus keeps them. */
export const toastDurationMs = 10_000

export function ToastRegion({ toast }: { toast: { kind: string; key: string } | null }) {
  const { t } = useTranslation()
  const [visible, setVisible] = useState(Boolean(toast))
  const [paused, setPaused] = useState(false)
  useEffect(() => setVisible(Boolean(toast)), [toast])
  useEffect(() => {
    if (!visible || paused) return
    const timer = setTimeout(() => setVisible(false), toastDurationMs)
    return () => clearTimeout(timer)
  }, [visible, paused])
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {toast && visible ? (
        <div
          className="toast"
          onMouseEnter={() => setPaused(true)}
          onMouseLeave={() => setPaused(false)}
          onFocus={() => setPaused(true)}
          onBlur={() => setPaused(false)}
        >
          <span>{t(toast.key)}</span>
          <button type="button" className="button button--link" onClick={() => setVisible(false)}>
            {t('toast.dismiss')}
          </button>
        </div>
      ) : null}
    </div>
  )
}

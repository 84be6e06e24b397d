import { Link, useLocation } from '@remix-run/react'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from '#app/utils/use-hydrated.ts'

/**
 * Spec §9: a toast stays 10 seconds by default and can be dismissed; hovering or focus keeps it,
 * and one that offers an action ("Try again") stays until dismissed. The 10 seconds are a minimum:
 * the same message also stays on the page (`FlashStatus`) for members who missed it.
 */
export const toastDurationMs = 10_000

export interface ToastMessage {
  kind: 'success' | 'info' | 'error'
  key: string
  action?: { to: string; key: string }
  values?: Record<string, string | number>
}

/**
 * The message belongs to the page it arrived with: a later navigation (which does not reload the
 * root's data) leaves it behind. Returns the toast while the member is still on that page.
 */
export function useToastOfThisPage(toast: ToastMessage | null) {
  const { key } = useLocation()
  const [arrival, setArrival] = useState({ toast, key })
  if (arrival.toast !== toast) setArrival({ toast, key })
  return arrival.toast === toast && arrival.key === key ? toast : null
}

function ToastText({ toast }: { toast: ToastMessage }) {
  const { t } = useTranslation()
  return (
    <p>
      {t(toast.key, toast.values ?? {})}
      {toast.action ? (
        <>
          {' '}
          <Link to={toast.action.to} reloadDocument>
            {t(toast.action.key)}
          </Link>
        </>
      ) : null}
    </p>
  )
}

/**
 * The one live region that announces toasts (QUALITY.md: one live region, so nothing is read out
 * twice). The toast floats over the page once JavaScript runs; without it, or where a floating
 * toast would cover too much of a small or large-text screen (app.css), `FlashStatus` shows it.
 */
export function ToastRegion({ toast: arrived }: { toast: ToastMessage | null }) {
  const toast = useToastOfThisPage(arrived)
  const hydrated = useHydrated()
  const [dismissed, setDismissed] = useState<ToastMessage | null>(null)
  const shown = hydrated && toast && dismissed !== toast ? toast : null
  const dismiss = useCallback(() => setDismissed(toast), [toast])
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {shown ? <FloatingToast key={shown.key} toast={shown} onDismiss={dismiss} /> : null}
    </div>
  )
}

function FloatingToast({ toast, onDismiss }: { toast: ToastMessage; onDismiss: () => void }) {
  const { t } = useTranslation()
  const [paused, setPaused] = useState(false)
  useEffect(() => {
    if (toast.action || paused) return
    const timer = setTimeout(onDismiss, toastDurationMs)
    return () => clearTimeout(timer)
  }, [toast, paused, onDismiss])
  return (
    <div
      className={`toast toast--${toast.kind}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <ToastText toast={toast} />
      <button type="button" className="button button--link" onClick={onDismiss}>
        {t('toast.dismiss')}
      </button>
    </div>
  )
}

const noticeKind: Record<ToastMessage['kind'], string> = { success: 'notice notice--success', info: 'notice', error: 'notice notice--error' }

/**
 * The toast's message at the top of the main content, for as long as the member stays on the
 * page: readable after the toast has gone, and the only copy without JavaScript. Not a live
 * region: `ToastRegion` announces it.
 */
export function FlashStatus({ toast: arrived }: { toast: ToastMessage | null }) {
  const toast = useToastOfThisPage(arrived)
  if (!toast) return null
  return (
    <div className={`${noticeKind[toast.kind]} flash`}>
      <ToastText toast={toast} />
    </div>
  )
}

import { Link, useFetcher } from '@remix-run/react'
import { useId, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { translatedList } from '#app/utils/i18n.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { useRefetchOnFailure } from '#app/utils/use-refetch-on-failure.ts'

/**
 * Block and Unblock wherever a member meets another (issue 14 §4, decisions 034 and 041): the
 * profile, a conversation, a message request, an attendee list, the new-message search.
 *
 * Without JavaScript the control is a link to the confirmation page `/p/{slug}/block`, which
 * says what will happen and comes back to `returnTo`. With JavaScript it opens the same words in
 * a dialog, and confirming posts to that page's action with a fetcher: the control (and any
 * other part of the page that asks `useBlockState`) shows the new state at once; on failure the
 * page's data is read again and the control says so (spec §4, §8).
 */

export type BlockIntent = 'block' | 'unblock'

/** The block page's answer to an in-place request (`inPlace=1`); `isBlocked` null when unknown. */
export type BlockAnswer = { done: BlockIntent; isBlocked: boolean } | { failed: BlockIntent; isBlocked: boolean | null; returnTo?: string }

/** The confirmation page, coming back to `returnTo` (what the control is without JavaScript). */
export function blockPagePath(slug: string, returnTo: string) {
  return `/p/${encodeURIComponent(slug)}/block?returnTo=${encodeURIComponent(returnTo)}`
}

/** Every control for one member shares one fetcher, so a conversation's two controls agree. */
const fetcherKey = (slug: string) => `block:${slug}`

/**
 * Whether the member is blocked as the page should show it now: what is being asked while it
 * is asked (optimistic), else the failed request's fresh reading, else what the page loaded
 * (`known`; null when the page does not know, as on an attendee list).
 */
export function useBlockState(slug: string, known: boolean | null) {
  const fetcher = useFetcher<BlockAnswer>({ key: fetcherKey(slug) })
  const pending = fetcher.formData?.get('intent')
  const answer = fetcher.data
  const failed = !pending && answer && 'failed' in answer ? answer : null
  let isBlocked = known
  if (pending === 'block' || pending === 'unblock') isBlocked = pending === 'block'
  else if (failed) isBlocked = failed.isBlocked ?? known
  else if (known === null && answer) isBlocked = answer.isBlocked
  return { fetcher, isBlocked, failed: failed?.failed ?? null }
}

/** What blocking or unblocking does: the confirmation page's words, also the dialog's. */
export function BlockExplanation({ intent, name }: { intent: BlockIntent; name: string }) {
  const { t } = useTranslation('blocking')
  return (
    <>
      <p>{t(`${intent}.intro`, { name })}</p>
      <ul>
        {translatedList(t, `${intent}.effects`, { name }).map((effect) => (
          <li key={effect}>{effect}</li>
        ))}
      </ul>
      <p>{t(`${intent}.after`, { name })}</p>
    </>
  )
}

export function BlockControl({
  slug,
  name,
  isBlocked: known,
  returnTo,
  short = false,
  className,
}: {
  /** The member's slug (or id): the address of their confirmation page. */
  slug: string
  name: string
  /** Whether the viewer blocked them, as the page loaded it; null when the page does not know. */
  isBlocked: boolean | null
  /** Where the confirmation page comes back to without JavaScript (same-origin path). */
  returnTo: string
  /** "Block" with the name for screen readers only (a list or a row of buttons). */
  short?: boolean
  /** The look of the control; a link's look by default. */
  className?: string
}) {
  const { t } = useTranslation('blocking')
  const hydrated = useHydrated()
  const { fetcher, isBlocked, failed } = useBlockState(slug, known)
  const intent: BlockIntent = isBlocked ? 'unblock' : 'block'
  const label: ReactNode = short ? (
    <>
      {t(`${intent}.short`)}
      <span className="visually-hidden"> {name}</span>
    </>
  ) : (
    t(`${intent}.link`, { name })
  )
  const dialog = useRef<HTMLDialogElement>(null)
  const trigger = useRef<HTMLButtonElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const messageId = useId()

  const refetching = useRefetchOnFailure(failed ? fetcher.data : undefined)

  if (!hydrated) {
    return (
      <Link to={blockPagePath(slug, returnTo)} className={className}>
        {label}
      </Link>
    )
  }

  function open() {
    dialog.current?.showModal()
    // The safe choice first (WAI-ARIA alert dialog): "No, go back".
    cancel.current?.focus()
  }

  function confirm() {
    void fetcher.submit({ intent, returnTo, inPlace: '1' }, { method: 'post', action: `/p/${encodeURIComponent(slug)}/block` })
    dialog.current?.close()
  }

  return (
    <>
      <button
        type="button"
        ref={trigger}
        className={className ?? 'button button--link'}
        aria-haspopup="dialog"
        aria-describedby={failed ? messageId : undefined}
        onClick={open}
      >
        {label}
      </button>
      {failed ? (
        <span className="field-error block-control__error" id={messageId} role="alert">
          {t(`${failed}.failed`, { name })}
          {isBlocked === null || refetching ? null : <> {t(isBlocked ? 'nowBlocked' : 'nowNotBlocked', { name })}</>}
        </span>
      ) : null}
      {/* Escape and "No, go back" close it; focus goes back to the button either way. */}
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onClose={() => trigger.current?.focus()}>
        <h2 id={titleId}>{t(`${intent}.title`, { name })}</h2>
        <BlockExplanation intent={intent} name={name} />
        <div className="button-row">
          <button type="button" className={intent === 'block' ? 'button button--danger' : 'button'} onClick={confirm}>
            {t(`${intent}.confirm`, { name })}
          </button>
          <button type="button" ref={cancel} className="button button--secondary" onClick={() => dialog.current?.close()}>
            {t('cancel')}
          </button>
        </div>
      </dialog>
    </>
  )
}

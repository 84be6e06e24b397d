import { useFetchers, useNavigation } from '@remix-run/react'
import { useEffect, useRef, type ButtonHTMLAttributes, type MouseEvent, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from '#app/utils/use-hydrated.ts'

/** What a pressed button says while its form is on its way (`common:form.pending.*`). */
export type PendingKind = 'saving' | 'sending' | 'checking' | 'signingIn' | 'signingOut' | 'searching' | 'uploading' | 'deleting' | 'opening' | 'working'

/** A second press this soon after the first is ignored even before the page shows it is pending. */
const pressLockMs = 1_000

/**
 * A form's submit button (decision 069). With JavaScript, once pressed and until the answer has
 * come, it says what is happening ("Saving…"), is `aria-disabled` and ignores further presses,
 * and a status region beside it tells screen readers; only the button that was pressed does, so
 * "Skip" stays as it is while "Save" saves. Without JavaScript it is a plain submit button.
 *
 * Which submission is this button's is read from the page's navigation and fetchers: the same
 * method and address as its form, its own `name=value` when it has one (else no other named
 * button of the form was pressed), and the form's hidden fields (two "Message" buttons for two
 * members differ only by those).
 */
export function SubmitButton({
  pending,
  pendingText,
  keepChildren,
  children,
  onClick,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  /** What the button says while pending. */
  pending: PendingKind
  /** Its own words instead (already translated), when none of the shared ones fit. */
  pendingText?: string
  /** Keeps what the button shows and adds the words after it (a button that is a whole notification). */
  keepChildren?: boolean
}) {
  const { t } = useTranslation('common')
  const hydrated = useHydrated()
  const ref = useRef<HTMLButtonElement>(null)
  const busy = useOwnSubmission(ref)
  const pressedAt = usePressLock(ref, busy)
  const text = pendingText ?? t(`common:form.pending.${pending}`)
  const busyLabel = keepChildren ? (
    <>
      {children} <span className="submit-pending">{text}</span>
    </>
  ) : (
    text
  )

  function press(event: MouseEvent<HTMLButtonElement>) {
    if (busy || Date.now() - pressedAt.current < pressLockMs) {
      event.preventDefault()
      return
    }
    onClick?.(event)
  }

  return (
    <>
      <button ref={ref} type="submit" {...props} aria-disabled={busy || undefined} onClick={press}>
        {busy ? busyLabel : children}
      </button>
      {hydrated ? (
        <span role="status" className="visually-hidden">
          {busy ? text : ''}
        </span>
      ) : null}
    </>
  )
}

/** A submission in progress, as Remix shows the page's navigation and each fetcher. */
export interface SubmissionLike {
  state: string
  formData?: FormData
  formAction?: string
  formMethod?: string
}

/** What of a submit button and its form tells its submission apart (read from the page). */
export interface ButtonFacts {
  /** The form's address (the button's `formaction` first), resolved against the page's. */
  action: URL
  method: string
  /** The button's own `name=value`, when it has a name. */
  own: [string, string] | null
  /** The other named submit buttons of the same form. */
  others: Array<[string, string]>
  /** The form's hidden fields. */
  hidden: Array<[string, string]>
}

/** True while the page's navigation or one of its fetchers carries what this button sent. */
function useOwnSubmission(ref: RefObject<HTMLButtonElement | null>) {
  const navigation = useNavigation()
  const fetchers = useFetchers()
  const button = ref.current
  if (!button?.form) return false
  const facts = factsOf(button, button.form)
  return [navigation, ...fetchers].some((submission) => isSentBy(submission, facts))
}

function factsOf(button: HTMLButtonElement, form: HTMLFormElement): ButtonFacts {
  const controls = [...form.elements]
  const named = (control: Element): control is HTMLButtonElement | HTMLInputElement =>
    (control instanceof HTMLButtonElement || control instanceof HTMLInputElement) && control.name !== ''
  const others = controls.filter((control) => control !== button && control instanceof HTMLButtonElement && control.type === 'submit')
  return {
    action: new URL(button.getAttribute('formaction') ?? form.getAttribute('action') ?? '', window.location.href),
    method: (button.getAttribute('formmethod') ?? form.method).toLowerCase(),
    own: button.name ? [button.name, button.value] : null,
    others: others.filter(named).map((control) => [control.name, control.value]),
    hidden: controls.filter((control) => control instanceof HTMLInputElement && control.type === 'hidden').filter(named).map((control) => [control.name, control.value]),
  }
}

/**
 * Whether `submission` is what this button sent: the same method and address, its own
 * `name=value` (an unnamed button: no other named button's), and every hidden field of its form.
 */
export function isSentBy({ state, formData, formAction, formMethod }: SubmissionLike, button: ButtonFacts) {
  if (state === 'idle' || !formData || !formAction) return false
  const carries = ([name, value]: [string, string]) => formData.getAll(name).includes(value)
  const address = new URL(formAction, button.action)
  if ((formMethod ?? 'get').toLowerCase() !== button.method) return false
  if (address.pathname !== button.action.pathname || address.search !== button.action.search) return false
  if (button.own ? !carries(button.own) : button.others.some(carries)) return false
  return button.hidden.every(carries)
}

/**
 * When this button last sent its form: a second press arriving before the page shows the first
 * one pending (a double click) is ignored. Typing in the form again (after the browser refused
 * it, say) lifts the lock, and so does the answer.
 */
function usePressLock(ref: RefObject<HTMLButtonElement | null>, busy: boolean) {
  const pressedAt = useRef(0)
  useEffect(() => {
    const button = ref.current
    const form = button?.form
    if (!button || !form) return
    const sent = (event: SubmitEvent) => {
      if (event.submitter === button) pressedAt.current = Date.now()
    }
    const typed = () => {
      pressedAt.current = 0
    }
    form.addEventListener('submit', sent)
    form.addEventListener('input', typed)
    return () => {
      form.removeEventListener('submit', sent)
      form.removeEventListener('input', typed)
    }
  }, [ref])
  useEffect(() => {
    if (!busy) pressedAt.current = 0
  }, [busy])
  return pressedAt
}

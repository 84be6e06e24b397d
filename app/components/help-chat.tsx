import type { SubmissionResult } from '@conform-to/react'
import { Link, useFetcher, type Form, type FetcherWithComponents } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { maxMessageLength } from '#contract/limits.ts'
import type { HelpChatMessage } from '#contract/help-chat.ts'
import { useChatEvents } from '#app/utils/chat-live.tsx'
import { helpChatPath, helpPanelPath, isHelpChatSent, type HelpChatView } from '#app/utils/help-chat.ts'
import { openHelpWidget } from '#app/utils/help-widget.client.ts'
import { timeAgo } from '#app/utils/time-ago.ts'
import { useSignInHref } from '#app/utils/use-return-to.ts'
import { HelpCenterLink } from './help-center.tsx'
import { MessageText } from './message-text.tsx'
import { BreakableText } from './ui/breakable-text.tsx'
import { TextAreaField } from './ui/field.tsx'
import { SubmitButton } from './ui/submit-button.tsx'

/**
 * The help chat (issue 32 §6, spec §7, decision 083), drawn the same on the `/help/chat` page and
 * in the header's Help panel: the safety line, the member's conversation with Circle 55 support
 * and a form to write; a visitor gets the ways in (sign in, join) and the support address.
 */

/** Research §7: the chat's header says what staff never ask for here. */
export function HelpSafetyLine({ id }: { id?: string }) {
  const { t } = useTranslation('help')
  return (
    <p className="notice help-safety" id={id}>
      <strong>{t('safety')}</strong>
    </p>
  )
}

export function HelpConversation({ messages, now, headingId, headingLevel = 2 }: { messages: HelpChatMessage[]; now: number; headingId: string; headingLevel?: 2 | 3 }) {
  const { t, i18n } = useTranslation('help')
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <section aria-labelledby={headingId}>
      <Heading id={headingId}>{t('conversation')}</Heading>
      {messages.length === 0 ? (
        <p>{t('empty')}</p>
      ) : (
        <ol className="messages">
          {messages.map((message) => (
            <li key={message.id} id={`m-${message.id}`} className={message.from_support ? 'message message--product' : 'message message--own'}>
              <p className="message__meta">
                <span className="message__sender">{message.from_support ? t('support') : t('you')}</span>{' '}
                <time dateTime={message.created_at}>{timeAgo(message.created_at, now, i18n.language, t('justNow'))}</time>
              </p>
              <p className="message__body">
                <MessageText text={message.body} />
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** The message form: a plain `<Form>` on the page, the panel's fetcher form in the panel. */
export function HelpMessageForm({
  FormComponent,
  idPrefix,
  errors,
  formErrors,
  defaultValue,
  panel = false,
  headingLevel = 2,
  formProps = {},
}: {
  FormComponent: typeof Form | FetcherWithComponents<unknown>['Form']
  idPrefix: string
  errors?: string[] | null
  formErrors?: string[] | null
  defaultValue?: string
  panel?: boolean
  headingLevel?: 2 | 3
  /** More of the form's attributes (conform's `getFormProps` on the page). */
  formProps?: Record<string, unknown>
}) {
  const { t, i18n } = useTranslation('help')
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const headingId = `${idPrefix}write`
  return (
    <FormComponent {...formProps} method="post" action={panel ? helpPanelPath : helpChatPath} className="form" aria-labelledby={headingId} noValidate>
      <Heading id={headingId}>{t('writeHeading')}</Heading>
      {formErrors?.length ? (
        <p className="field-error" role="alert">
          {formErrors.map((error) => t(error)).join(' ')}
        </p>
      ) : null}
      {panel ? <input type="hidden" name="panel" value="1" /> : null}
      <TextAreaField
        id={`${idPrefix}text`}
        name="text"
        label={t('messageLabel')}
        hint={t('messageHint', { max: maxMessageLength.toLocaleString(i18n.language) })}
        errors={errors}
        rows={4}
        defaultValue={defaultValue}
      />
      <SubmitButton pending="sending" className="button">
        {t('send')}
      </SubmitButton>
    </FormComponent>
  )
}

/** A visitor, or a suspended member: the ways in, and the address that needs no account. */
export function HelpSignedOut({ view, headingLevel = 2 }: { view: Extract<HelpChatView, { signedIn: false }>; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation('help')
  const signIn = useSignInHref('/login')
  const signUp = useSignInHref('/signup')
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <>
      {view.suspended ? null : (
        <>
          <p>{t('signedOut.intro')}</p>
          <p className="button-row">
            <Link reloadDocument to={signIn} className="button">
              {t('signedOut.signIn')}
            </Link>
            <Link reloadDocument to={signUp} className="button button--secondary">
              {t('signedOut.signUp')}
            </Link>
          </p>
        </>
      )}
      <Heading>{t('otherWays')}</Heading>
      <HelpByEmail email={view.supportEmail} intro={t('signedOut.withoutAccount')} />
    </>
  )
}

export function HelpByEmail({ email, intro }: { email: string; intro: string }) {
  return (
    <p>
      {intro}{' '}
      <a href={`mailto:${email}`}>
        <BreakableText text={email} />
      </a>
    </p>
  )
}

type PanelAnswer = HelpChatView | SubmissionResult<string[]> | { sent: string }

const isView = (value: unknown): value is HelpChatView => typeof value === 'object' && value !== null && 'signedIn' in value

/**
 * The header's Help panel (the control and its state are `help-control.tsx`): loaded, with this
 * module, only when Help is first pressed, so the conversation's code is not on every page.
 */
export function HelpPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const { t, i18n } = useTranslation('help')
  // The page's own loader answers the panel: `{ title, view }`.
  const loader = useFetcher<{ view: HelpChatView }>({ key: 'help-panel' })
  const sender = useFetcher<PanelAnswer>({ key: 'help-panel-send' })
  const heading = useRef<HTMLHeadingElement>(null)
  const titleId = `${id}-title`
  const [vendor, setVendor] = useState<'opening' | 'failed' | null>(null)
  const view = loader.data?.view
  const load = useRef(loader.load)
  load.current = loader.load
  const closing = useRef(onClose)
  closing.current = onClose

  // Loaded when opened (not before), and the heading takes focus so a screen reader starts there.
  const [requested, setRequested] = useState(false)
  useEffect(() => {
    void load.current(helpPanelPath)
    setRequested(true)
    heading.current?.focus()
  }, [])

  // A vendor widget for this member: loaded now, and the panel steps aside once it is open.
  // Tried once per opening: a reload of the conversation (a new token) does not start it again.
  const widget = view?.signedIn ? view.widget : null
  const tried = useRef(false)
  useEffect(() => {
    if (!widget || tried.current) return
    tried.current = true
    setVendor('opening')
    void openHelpWidget(widget, i18n.language).then((ready) => {
      if (ready) closing.current()
      else setVendor('failed')
    })
  }, [widget, i18n.language])

  // An answer from support while the panel is open; and the conversation again after sending.
  const channelId = view?.signedIn ? view.channelId : null
  useChatEvents((event) => {
    if (event.type === 'message' ? event.event.channel_id === channelId : event.type === 'resync' || (event.type === 'ready' && event.fresh)) void load.current(helpPanelPath)
  })
  const sent = isHelpChatSent(sender.data) ? sender.data.sent : null
  useEffect(() => {
    if (sent) void load.current(helpPanelPath)
  }, [sent])

  // Escape closes it from anywhere inside (the header's button handles its own).
  const panel = useRef<HTMLElement>(null)
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && panel.current?.contains(document.activeElement)) closing.current()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])
  const refused = sender.data && !isHelpChatSent(sender.data) && !isView(sender.data) ? sender.data : null
  const showBuiltIn = view?.signedIn && (!view.widget || vendor === 'failed')

  return (
    <section id={id} ref={panel} className="help-panel" aria-labelledby={titleId}>
      <div className="container help-panel__inner">
        <div className="help-panel__top">
          <h2 id={titleId} ref={heading} tabIndex={-1}>
            {t('title')}
          </h2>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('panel.close')}
          </button>
        </div>
        <HelpSafetyLine />
        <HelpCenterLink />
        {!view ? (
          requested && loader.state === 'idle' ? (
            <p role="alert">
              {t('panel.failed')} <Link to={helpChatPath}>{t('panel.openPage')}</Link>
            </p>
          ) : (
            <p role="status">{t('panel.loading')}</p>
          )
        ) : !view.signedIn ? (
          <HelpSignedOut view={view} headingLevel={3} />
        ) : vendor === 'opening' ? (
          <p role="status">{t('panel.vendorOpening')}</p>
        ) : showBuiltIn ? (
          <>
            {vendor === 'failed' ? <p role="alert">{t('panel.vendorFailed')}</p> : null}
            <p>{t('intro')}</p>
            <HelpConversation messages={view.messages} now={view.now} headingId={`${id}-conversation`} headingLevel={3} />
            <HelpMessageForm
              key={sent ?? 'new'}
              FormComponent={sender.Form}
              idPrefix={`${id}-`}
              panel
              headingLevel={3}
              errors={refused?.error?.text}
              formErrors={refused?.error?.[''] ?? null}
              defaultValue={typeof refused?.initialValue?.text === 'string' ? refused.initialValue.text : undefined}
            />
            <p>
              <Link to={helpChatPath}>{t('panel.openPage')}</Link>
            </p>
          </>
        ) : null}
      </div>
    </section>
  )
}

export default HelpPanel

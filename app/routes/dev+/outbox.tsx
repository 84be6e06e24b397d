import { data, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { devOutboxAllows } from '#contract/dev-outbox.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { getT } from '#app/utils/i18next.server.ts'
import type { OutboxMessage } from '#app/utils/load-context.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * Outside production, the emails the product "sent" (sign-in codes, resets, welcomes). They
 * open every account, so by default only this machine sees them (DEV_OUTBOX, docs/decisions/007,
 * `devOutboxAllows`: the connection and the client address must both be loopback); everyone else
 * gets the same 404 as for a page that does not exist.
 */
const perPage = 50

/**
 * `?to=` shows one address's emails (a new member's code is never pushed off the page by the
 * demo's own emails); `?page=` goes back through older ones.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const outbox = requireOutbox(context)
  const t = await getT(request, context)
  const url = new URL(request.url)
  const to = url.searchParams.get('to')?.trim() ?? ''
  const page = Math.max(1, Math.min(1000, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1))
  // One more than a page says whether there are older ones.
  const found = await outbox(perPage + 1, { to: to || undefined, offset: (page - 1) * perPage })
  const texts = page === 1 ? ((await context.services.smsOutbox?.(50)) ?? []) : []
  return data(
    { messages: found.slice(0, perPage), older: found.length > perPage, to, page, texts, title: t('outbox.title') },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

/**
 * "Reply as this member" (decision 049): the reply goes to `POST v1/sms/inbound` as Twilio would
 * send it, so the built-in outbox exercises the same handling ("C" cancels the seat).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireOutbox(context)
  const form = await request.formData()
  const from = form.get('from')
  const body = form.get('body')
  if (typeof from !== 'string' || typeof body !== 'string') throw data(null, { status: 400 })
  const url = new URL('v1/sms/inbound', context.services.config.apiBaseUrl)
  const response = await context.services.apiFetch(
    new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ From: from, To: 'outbox', Body: body, MessageSid: `SMdev${crypto.randomUUID().replace(/-/g, '')}` }) }),
  )
  if (!response.ok) throw data(null, { status: response.status })
  return redirect('/dev/outbox#texts')
}

function requireOutbox(context: AppLoadContext) {
  const outbox = context.services.outbox
  const access = context.services.config.devOutbox
  if (!outbox || access === 'off') throw data(null, { status: 404 })
  if (!devOutboxAllows(access, [context.peerAddress, context.clientAddress])) throw data(null, { status: 404 })
  return outbox
}

export default function Outbox() {
  const { messages, older, to, page, texts } = useLoaderData<typeof loader>()
  const { t } = useTranslation(['common', 'sms'])
  const pageLink = (number: number) => `/dev/outbox?${new URLSearchParams({ ...(to ? { to } : {}), ...(number > 1 ? { page: String(number) } : {}) }).toString()}`
  return (
    <div className="prose">
      <h1>{t('outbox.title')}</h1>
      <p>{t('outbox.intro')}</p>
      <Form method="get" className="form" aria-label={t('outbox.filter')}>
        <TextField id="to" name="to" label={t('outbox.filterLabel')} hint={t('outbox.filterHint')} type="text" autoComplete="off" defaultValue={to} />
        <SubmitButton pending="searching" className="button button--secondary">
          {t('outbox.filterButton')}
        </SubmitButton>
      </Form>
      {to ? <p>{t('outbox.showing', { address: to })}</p> : null}
      {messages.length === 0 ? <p>{to ? t('outbox.emptyFor', { address: to }) : t('outbox.empty')}</p> : null}
      {messages.map((message) => (
        <article key={message.id} className="card" aria-labelledby={`m-${message.id}`}>
          <h2 id={`m-${message.id}`}>{message.subject}</h2>
          <dl className="details">
            <dt>{t('outbox.to')}</dt>
            <dd data-testid="outbox-to">{message.to}</dd>
            <dt>{t('outbox.sent')}</dt>
            <dd>{message.createdAt.replace("T", " ").slice(0, 16)} UTC</dd>
            {message.delivery.status === 'waiting' ? null : (
              <>
                <dt>{t('outbox.delivery')}</dt>
                <dd data-testid="outbox-delivery"><DeliveryText delivery={message.delivery} /></dd>
              </>
            )}
          </dl>
          <p className="outbox-message" data-testid="outbox-body">
            {message.text}
          </p>
        </article>
      ))}
      {older || page > 1 ? (
        <nav aria-label={t('outbox.pages')} className="button-row">
          {page > 1 ? <Link to={pageLink(page - 1)}>{t('outbox.newer')}</Link> : null}
          {older ? <Link to={pageLink(page + 1)}>{t('outbox.older')}</Link> : null}
        </nav>
      ) : null}
      <h2 id="texts">{t('sms:outbox.title')}</h2>
      {texts.length === 0 ? <p>{t('sms:outbox.empty')}</p> : null}
      {texts.map((text) => (
        <article key={text.id} className="card" aria-labelledby={`s-${text.id}`} data-testid="sms">
          <h3 id={`s-${text.id}`}>{text.kind}</h3>
          <dl className="details">
            <dt>{t('outbox.to')}</dt>
            <dd data-testid="sms-to">{text.to}</dd>
            <dt>{t('outbox.sent')}</dt>
            <dd>{text.createdAt.replace('T', ' ').slice(0, 16)} UTC</dd>
          </dl>
          <p className="outbox-message" data-testid="sms-body">
            {text.text}
          </p>
          {text.kind === 'reply' ? null : (
            <Form method="post" className="form">
              <input type="hidden" name="from" value={text.to} />
              <TextField id={`reply-${text.id}`} name="body" label={t('sms:outbox.replyLabel')} hint={t('sms:outbox.replyHint')} type="text" required />
              <SubmitButton pending="sending" className="button button--secondary">
                {t('sms:outbox.reply')}
              </SubmitButton>
            </Form>
          )}
        </article>
      ))}
    </div>
  )
}

/** The mail server's part (SMTP configured): one line, in the page's language. */
function DeliveryText({ delivery }: { delivery: OutboxMessage['delivery'] }) {
  const { t } = useTranslation('common')
  const time = (at: string) => `${at.replace('T', ' ').slice(0, 16)} UTC`
  if (delivery.status === 'sent') return <>{t('outbox.deliverySent', { time: time(delivery.at) })}</>
  if (delivery.status === 'failed') return <>{t('outbox.deliveryFailed', { time: time(delivery.at), count: delivery.attempts, error: delivery.error ?? '' })}</>
  if (delivery.status === 'retrying') return <>{t('outbox.deliveryRetrying', { count: delivery.attempts, error: delivery.error ?? '' })}</>
  return null
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

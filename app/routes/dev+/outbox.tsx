import { data, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

export const handle = { i18n: ['common', 'sms'] }

/**
 * Outside production, the emails the product "sent" (sign-in codes, resets, welcomes). They
 * open every account, so by default only this machine sees them (DEV_OUTBOX, docs/decisions/007);
 * everyone else gets the same 404 as for a page that does not exist.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const outbox = requireOutbox(context)
  const t = await getT(request, context)
  const texts = (await context.services.smsOutbox?.(50)) ?? []
  return data({ messages: await outbox(50), texts, title: t('outbox.title') }, { headers: { 'Cache-Control': 'no-store' } })
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
  if (access === 'loopback' && !fromThisMachine(context.peerAddress, context.clientAddress)) throw data(null, { status: 404 })
  return outbox
}

export default function Outbox() {
  const { messages, texts } = useLoaderData<typeof loader>()
  const { t } = useTranslation(['common', 'sms'])
  return (
    <div className="prose">
      <h1>{t('outbox.title')}</h1>
      <p>{t('outbox.intro')}</p>
      {messages.length === 0 ? <p>{t('outbox.empty')}</p> : null}
      {messages.map((message) => (
        <article key={message.id} className="card" aria-labelledby={`m-${message.id}`}>
          <h2 id={`m-${message.id}`}>{message.subject}</h2>
          <dl className="details">
            <dt>{t('outbox.to')}</dt>
            <dd data-testid="outbox-to">{message.to}</dd>
            <dt>{t('outbox.sent')}</dt>
            <dd>{message.createdAt.replace("T", " ").slice(0, 16)} UTC</dd>
          </dl>
          <p className="outbox-message" data-testid="outbox-body">
            {message.text}
          </p>
        </article>
      ))}
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
              <button type="submit" className="button button--secondary">
                {t('sms:outbox.reply')}
              </button>
            </Form>
          )}
        </article>
      ))}
    </div>
  )
}

/**
 * Both the connection and the client address must be loopback: the connection alone would let
 * in everyone behind a reverse proxy on this machine, and the client address alone can be
 * forged with X-Forwarded-For when TRUST_PROXY is set.
 */
function fromThisMachine(...addresses: (string | undefined)[]) {
  return addresses.every((address) => {
    if (address === '::1') return true
    const v4 = address?.startsWith('::ffff:') ? address.slice(7) : address
    return v4 !== undefined && /^127(\.\d{1,3}){3}$/.test(v4)
  })
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

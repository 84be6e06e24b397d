import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * Outside production, the emails the product "sent" (sign-in codes, resets, welcomes). They
 * open every account, so by default only this machine sees them (DEV_OUTBOX, docs/decisions/007);
 * everyone else gets the same 404 as for a page that does not exist.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const outbox = context.services.outbox
  const access = context.services.config.devOutbox
  if (!outbox || access === 'off') throw data(null, { status: 404 })
  if (access === 'loopback' && !fromThisMachine(context.peerAddress, context.clientAddress)) throw data(null, { status: 404 })
  const t = await getT(request, context)
  return data({ messages: await outbox(50), title: t('outbox.title') }, { headers: { 'Cache-Control': 'no-store' } })
}

export default function Outbox() {
  const { messages } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
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

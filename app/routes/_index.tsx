import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { getOptionalUser } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useDisplayName } from '#app/utils/use-display-name.ts'
import { useOptionalUser } from '#app/utils/user-hooks.ts'

export const handle = { i18n: ['common', 'home'] }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request, context)
  const t = await getT(request, context, 'home')
  return { title: t('title'), description: t('description'), signedIn: Boolean(user) }
}

export default function Home() {
  const { signedIn } = useLoaderData<typeof loader>()
  const { t } = useTranslation('home')
  const name = useDisplayName(useOptionalUser())
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">{signedIn ? t('greeting', { name }) : t('hero.title')}</h1>
        <p className="lead">{t('hero.body')}</p>
        {signedIn ? null : (
          <div className="button-row">
            <Link to="/signup" className="button">
              {t('hero.join')}
            </Link>
            <Link to="/login" className="button button--secondary">
              {t('hero.signIn')}
            </Link>
          </div>
        )}
      </section>
      <section aria-labelledby="how-title" className="prose">
        <h2 id="how-title">{t('how.title')}</h2>
        <ol>
          <li>{t('how.find')}</li>
          <li>{t('how.attend')}</li>
          <li>{t('how.host')}</li>
        </ol>
        <p>
          <Link to="/company/about">{t('how.more')}</Link>
        </p>
      </section>
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title, data?.description)

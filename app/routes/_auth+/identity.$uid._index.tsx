import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { IdentityLayout } from '#app/components/identity-layout.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { getT } from '#app/utils/i18next.server.ts'
import { abortSignIn, completeSignIn, requireInteraction } from '#app/utils/identity.server.ts'
import { formAction, refuse } from '#app/utils/form-action.server.ts'
import { readIdentityStep, redirectWithStep } from '#app/utils/identity-step.server.ts'
import { passwordSignInSchema, useCodeSchema } from '#app/utils/identity-schemas.ts'
import { loadFormPage } from '#app/utils/forms.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'auth')
  const url = new URL(request.url)
  const notice = url.searchParams.get('notice') === 'reset' ? ('reset' as const) : null
  return loadFormPage(
    context,
    async () => {
      const { interaction } = await requireInteraction(context, params.uid)
      if (interaction.screenHint === 'signup') throw redirect(`/identity/${interaction.uid}/signup`)
      // Back from signing in with a code: the email typed there.
      const email = (await readIdentityStep(request, context, interaction.uid))?.email ?? ''
      return { uid: interaction.uid, title: t('signIn.title'), notice, email }
    },
    // The database is down: the form is drawn again from what the member sent.
    () => ({ uid: params.uid ?? '', title: t('signIn.title'), notice, email: '' }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  // Read first: with the database down the page answers with what the member typed.
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: passwordSignInSchema })
  return formAction({ request, context }, submission, {
    notSaved: 'auth:errors.unavailable',
    hideFields: ['password'],
    ready: async () => {
      const found = await requireInteraction(context, params.uid)
      const uid = found.interaction.uid
      if (formData.get('intent') === 'cancel') throw await abortSignIn(context, uid)
      if (formData.get('intent') === 'code') {
        // "Sign in with a code instead" takes the email typed here to the code form.
        const typed = formData.get('email')
        const email = typeof typed === 'string' ? typed.trim().slice(0, 254) : ''
        throw await redirectWithStep(context, `/identity/${uid}/code`, { uid, email, sent: null })
      }
      return found
    },
    save: async ({ email, password }, { identity, interaction }) => {
      const result = await identity.verifyPassword(email, password)
      if (!('error' in result)) return completeSignIn(context, interaction.uid, result.accountId)
      return result.error === 'too_many' ? refuse(429, { formErrors: ['auth:errors.tooManyAttempts'] }) : refuse(400, { formErrors: ['auth:signIn.invalid'] })
    },
  })
}

export default function SignIn() {
  const { uid, notice, email } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('auth')
  const [form, fields] = useForm({
    id: 'sign-in',
    lastResult,
    constraint: getZodConstraint(passwordSignInSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    // "Sign in with a code instead" goes on with whatever is typed, or nothing.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: formData.get('intent') === 'code' ? useCodeSchema : passwordSignInSchema }),
  })
  return (
    <IdentityLayout title={t('signIn.title')}>
      {notice === 'reset' ? (
        <div className="notice notice--success" role="status">
          <p>{t('reset.done')}</p>
        </div>
      ) : null}
      <ErrorSummary
        errors={summaryFrom(fields.email.errors || fields.password.errors ? { email: fields.email.errors, password: fields.password.errors } : undefined, ['email', 'password'])}
        formErrors={form.errors}
      />
      <p>{t('signIn.intro')}</p>
      <Form method="post" {...getFormProps(form)}>
        <TextField
          id="email"
          name={fields.email.name}
          label={t('fields.email')}
          type="email"
          autoComplete="username"
          inputMode="email"
          spellCheck={false}
          required
          defaultValue={fields.email.initialValue ?? email}
          errors={fields.email.errors}
        />
        <TextField
          id="password"
          name={fields.password.name}
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          required
          errors={fields.password.errors}
        />
        <div className="button-row">
          <SubmitButton pending="signingIn" className="button">
            {t('signIn.submit')}
          </SubmitButton>
        </div>
      </Form>
      <ul>
        <li>
          {/* Part of the form above (the `form` attribute), so that the email typed goes along. */}
          <SubmitButton pending="opening" form={form.id} name="intent" value="code" className="button button--link" formNoValidate>
            {t('signIn.useCode')}
          </SubmitButton>
        </li>
        <li>
          <Link to={`/identity/${uid}/reset`}>{t('signIn.forgot')}</Link>
        </li>
      </ul>
      <h2>{t('signIn.newHere')}</h2>
      <p>
        <Link to={`/identity/${uid}/signup`} className="button button--secondary">
          {t('signIn.createAccount')}
        </Link>
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="cancel" />
        <SubmitButton pending="working" className="button button--link" formNoValidate>
          {t('cancel')}
        </SubmitButton>
      </Form>
    </IdentityLayout>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server.js'
import { describe, expect, it } from 'vitest'
import { createI18nInstance } from '#app/utils/i18next.server.ts'
import { isSentBy, SubmitButton, type ButtonFacts } from './submit-button.tsx'

/**
 * The submit button of every form (decision 069). Without JavaScript it is the plain button it
 * always was; with it, the submission in flight says which button it came from (the browser's
 * behaviour itself is proved end to end in tests/e2e/forms-pending.spec.ts).
 */
async function serverRendered(node: React.ReactNode) {
  const routes = [{ path: '/', element: node }]
  const handler = createStaticHandler(routes)
  const context = await handler.query(new Request('https://circle55.test/'))
  if (context instanceof Response) throw new Error('unexpected redirect')
  const i18n = await createI18nInstance('en')
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
    </I18nextProvider>,
  )
}

describe('SubmitButton without JavaScript', () => {
  it('is the plain submit button: its words, its name and value, not disabled, no status region', async () => {
    const html = await serverRendered(
      <form method="post">
        <SubmitButton pending="saving" name="intent" value="save" className="button">
          Save
        </SubmitButton>
      </form>,
    )
    expect(html).toBe('<form method="post"><button type="submit" name="intent" value="save" class="button">Save</button></form>')
  })
})

const here = new URL('https://circle55.test/account/phone')
const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.append(name, value)
  return data
}
const submitting = (fields: Record<string, string>, formAction = '/account/phone', formMethod = 'POST') => ({ state: 'submitting', formData: form(fields), formAction, formMethod })
const button = (facts: Partial<ButtonFacts>): ButtonFacts => ({ action: here, method: 'post', own: null, others: [], hidden: [], ...facts })

describe('which button a submission came from', () => {
  it('of two named buttons in one form, only the one pressed', () => {
    const save = button({ own: ['intent', 'save'], others: [['intent', 'skip']] })
    const skip = button({ own: ['intent', 'skip'], others: [['intent', 'save']] })
    expect(isSentBy(submitting({ intent: 'skip' }), skip)).toBe(true)
    expect(isSentBy(submitting({ intent: 'skip' }), save)).toBe(false)
  })

  it('an unnamed button is not pending when a named button of its form was pressed ("Sign in with a code instead")', () => {
    const signIn = button({ others: [['intent', 'code']] })
    expect(isSentBy(submitting({ email: 'rose@example.com', intent: 'code' }), signIn)).toBe(false)
    expect(isSentBy(submitting({ email: 'rose@example.com', password: 'x' }), signIn)).toBe(true)
  })

  it('forms alike but for their hidden fields ("Message" beside each member) are told apart', () => {
    const rose = button({ hidden: [['slug', 'rose']] })
    const ada = button({ hidden: [['slug', 'ada']] })
    expect(isSentBy(submitting({ slug: 'ada' }), ada)).toBe(true)
    expect(isSentBy(submitting({ slug: 'ada' }), rose)).toBe(false)
  })

  it('another page’s form, another method, or nothing in flight is not this button’s', () => {
    const send = button({ hidden: [['intent', 'send']] })
    expect(isSentBy(submitting({ intent: 'send' }, '/account/email'), send)).toBe(false)
    expect(isSentBy(submitting({ intent: 'send' }, '/account/phone', 'GET'), send)).toBe(false)
    expect(isSentBy({ state: 'idle' }, send)).toBe(false)
    // After the action, while the next page loads, it is still the same submission.
    expect(isSentBy({ ...submitting({ intent: 'send' }), state: 'loading' }, send)).toBe(true)
  })
})

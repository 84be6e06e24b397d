import { parseWithZod } from '@conform-to/zod/v4'
import type { AppLoadContext } from '@remix-run/node'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import type { ApiErrorMapping } from '#app/utils/http.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { detectLanguage } from '#app/utils/i18next.server.ts'
import { memberPhone } from '#contract/medicare-phone.ts'
import { giveSchema } from './__medicare-parts.tsx'

/**
 * Permission to be called about Medicare plans from the web (decision 086), shared by
 * `/account/medicare` and `/get-started/medicare`: the member's state with the words in the page's
 * language, and giving it (the page and the browser recorded with it) with the API's refusals next
 * to their fields.
 */

const m = (key: string) => `medicare:errors.${key}`

/** The form's schema, with a number of the right length checked as the API checks it (a toll-free one is refused), so every mistake is said at once. */
const serverGiveSchema = giveSchema.extend({
  phone: giveSchema.shape.phone.refine((phone) => !/^1?\d{10}$/.test(phone.replace(/\D/g, '')) || memberPhone(phone) !== null, m('phoneInvalid')),
})

const apiErrors: ApiErrorMapping = {
  messages: {
    phone: (codes) => codes.map((code) => m(code === 'phone_required' ? 'phoneRequired' : 'phoneInvalid')),
    topics: () => [m('topicsRequired')],
    agree: () => [m('agreeRequired')],
  },
  conflict: (code) => m(code === 'medicare_words_changed' ? 'wordsChanged' : code === 'medicare_consent_in_force' ? 'inForce' : 'notOffered'),
}

/** The member, their consent in force and the offer (words in the page's language), and the confirmed phone to fill in. */
export async function loadMedicare(request: Request, context: AppLoadContext) {
  const user = await requireUser(request, context)
  const language = await detectLanguage(request, context)
  const state = await getApi(request, context).medicare.state(language).catch(notFoundOnMissing)
  return { ...state, phone: user.phone_confirmed ? user.formatted_phone : null }
}

/** "Agree and ask for a call": the form checked, then the API; `done` answers the success (a redirect). */
export async function giveMedicare(request: Request, context: AppLoadContext, form: FormData, done: () => Promise<Response>) {
  const submission = parseWithZod(form, { schema: serverGiveSchema })
  const url = new URL(request.url)
  return formAction({ request, context }, submission, {
    notSaved: m('notSaved'),
    apiErrors,
    save: async (value) => {
      await getApi(request, context).medicare.give({
        phone: value.phone,
        topics: value.topics,
        agree: true,
        version: value.version,
        partner_revision: value.partner_revision,
        locale: await detectLanguage(request, context),
        page: url.pathname,
        user_agent: request.headers.get('user-agent')?.slice(0, 500) ?? undefined,
      })
      return (await done()) as never
    },
  })
}


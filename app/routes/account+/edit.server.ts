import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type AppLoadContext } from '@remix-run/node'
import type { z } from 'zod'
import type { UpdateMe } from '#contract/users.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { keepFormOnOutage } from '#app/utils/forms.server.ts'
import type { ApiErrorMapping } from '#app/utils/http.server.ts'
import { languageCookie } from '#app/utils/i18next.server.ts'
import { formAction, refusedForm } from '#app/utils/form-action.server.ts'
import { readPhotoForm, savePhotoForm } from '#app/utils/photo-upload.server.ts'
import { photoFormSchema } from '#app/utils/photo-schema.ts'
import { isProfileSection, profileFormSchemas, sectionAnchor, type ProfileSection } from '#app/utils/profile-schemas.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * The profile editor's actions (issue 13 §1, issue 29 §4). `/account/edit/{section}` sends its
 * section's form with its `intent`: the section's schema reads it, `updateFor` turns it into the
 * fields of `PUT v1/users/me` it changes, and a success goes back to the section's row of
 * `/account/edit` with a toast. `/account/edit` itself takes the photo, as the one multipart
 * form (its check is the onboarding step's, decision 024), and "Remove my photo" as intent
 * `removePhoto`. An intent another page sends, or none we know, answers 400.
 */

type SectionValue = z.output<(typeof profileFormSchemas)[ProfileSection]>

/** The fields of `PUT v1/users/me` a section changes. */
function updateFor(value: SectionValue): UpdateMe {
  switch (value.intent) {
    case 'name':
      return { first_name: value.firstName, last_name: value.lastName }
    case 'about':
      return { gender: value.gender, relationship: value.relationship, employment: value.employment, family: value.family, join_reasons: value.reasons }
    case 'interests':
      return { interests: value.interests }
    case 'prompts':
      return { prompts: value.prompts }
    case 'city':
      // A place chosen from the suggestions, else the words typed (resolved by the API); empty clears it.
      return { city: value.place || value.q || null }
    case 'phone':
      return { phone: value.phone ?? null }
    case 'privacy':
      return {
        show_age: value.showAge === 'yes',
        nearby_visibility: value.nearbyVisibility,
        ...(value.blockedInSearch ? { show_blocked_in_chat_search: value.blockedInSearch === 'show' } : {}),
      }
    case 'language':
      return { locale: value.language }
  }
}

/** How the API's field codes read on each section's fields. */
const apiErrors: Partial<Record<ProfileSection, ApiErrorMapping>> = {
  name: { fields: { first_name: 'firstName', last_name: 'lastName' } },
  about: { fields: { join_reasons: 'reasons' } },
  interests: { messages: { interests: (codes) => codes.map((code) => (code === 'too_many_interests' ? 'profile:validation.tooManyInterests' : 'profile:validation.choiceInvalid')) } },
  city: { fields: { city: 'q' }, messages: { city: () => ['profile:validation.unknown_place'] } },
  privacy: { fields: { show_age: 'showAge', nearby_visibility: 'nearbyVisibility', show_blocked_in_chat_search: 'blockedInSearch' } },
  language: { fields: { locale: 'language' } },
}

function saved(context: AppLoadContext, section: ProfileSection | 'photo', key = `profile:edit.${section}.saved`, headers?: Headers) {
  return redirectWithToast(context, `/account/edit#${sectionAnchor(section)}`, key, headers)
}

/** Without a photo, the form says so (there is no "Skip" here, unlike onboarding). */
const editPhotoSchema = photoFormSchema('profile:edit.photo.required')

async function savePhoto({ request, context }: ActionFunctionArgs) {
  // Read first: an outage (the session store included) still answers on this page.
  const received = await readPhotoForm(request)
  const submission = parseWithZod(received.formData, { schema: editPhotoSchema })
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const refusal = await savePhotoForm(request, context, received, submission)
      if (refusal) return refusedForm(context, { intent: 'photo' as const, result: submission.reply(refusal.errors) }, refusal.status)
      return saved(context, 'photo')
    },
    () => ({ intent: 'photo' as const, result: submission.reply({ fieldErrors: { photo: ['photo:errors.again'] } }) }),
  )
}

async function removePhoto({ request, context }: ActionFunctionArgs) {
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      await getApi(request, context).media.removeAvatar()
      return saved(context, 'photo', 'profile:edit.photo.removed')
    },
    () => ({ intent: 'photo' as const, result: { status: 'error' as const, error: { '': ['profile:edit.notSaved'] } } }),
  )
}

const isMultipart = (request: Request) => /^multipart\/form-data\s*;/i.test(request.headers.get('Content-Type') ?? '')

/** `/account/edit`: the photo, or "Remove my photo". */
export async function runPhotoIntent(args: ActionFunctionArgs) {
  if (isMultipart(args.request)) return savePhoto(args)
  const formData = await args.request.formData()
  if (formData.get('intent') === 'removePhoto') return removePhoto(args)
  throw data({ error: 'Unknown intent' }, { status: 400 })
}

/** `/account/edit/{section}`: that section's form, and no other. */
export async function saveSection({ request, context }: ActionFunctionArgs, section: ProfileSection) {
  // Read first: an outage (the session store included) answers with what the member typed.
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (!isProfileSection(intent) || intent !== section) throw data({ error: 'Unknown intent' }, { status: 400 })
  const submission = parseWithZod(formData, { schema: profileFormSchemas[intent] })
  return formAction({ request, context }, submission, {
    notSaved: 'profile:edit.notSaved',
    apiErrors: apiErrors[intent],
    answer: (result) => ({ intent, result }),
    save: async (value) => {
      await getApi(request, context).users.updateMe(updateFor(value))
      // The page comes back in the language chosen (the cookie the language switcher sets too).
      const headers = value.intent === 'language' ? new Headers({ 'Set-Cookie': await languageCookie.serialize(value.language) }) : undefined
      return saved(context, intent, undefined, headers)
    },
  })
}

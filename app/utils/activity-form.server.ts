import { parseWithZod } from '@conform-to/zod/v4'
import {
  data,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type AppLoadContext,
} from '@remix-run/node'
import type { ExperienceInput } from '#contract/experiences.ts'
import { maxPhotoBytes } from '#contract/limits.ts'
import type { Place } from '#contract/places.ts'
import { ApiError } from './api.server.ts'
import { activityFormSchema, apiFieldToFormField, withStartTime, type ActivityForm } from './activity-schema.ts'
import { getApi, requireUser } from './auth.server.ts'
import { refusedForm } from './form-action.server.ts'
import { keepFormOnOutage } from './forms.server.ts'
import { formErrorsFromApi, notFoundOnMissing } from './http.server.ts'
import { redirectWithToast } from './toast.server.ts'
import { photoFormUploadHandler } from './upload-handler.server.ts'

/** Spec §9: photos under 15 MB (contract/limits.ts). The upload handler stops reading past that. */
export { maxPhotoBytes }
const errorKey = (key: string) => `activities:form.errors.${key}`
/** Spec §8's upload errors by the API's status, each with its own message next to the photo field. */
const photoProblems: Partial<Record<number, string>> = { 413: 'photo_too_large', 415: 'photo_format', 422: 'photo_rejected' }

type Mode = { kind: 'create' } | { kind: 'edit'; id: string } | { kind: 'duplicate'; from: string }
interface Received {
  formData: FormData
  /** Why the form could not be read as the page sends it (multipart), if it could not. */
  problem: 'photo_too_large' | 'not_multipart' | null
}

/**
 * Create, edit and duplicate share this action: validate with the shared schema, resolve the
 * city without JavaScript (search-and-pick), upload the cover only when a file was chosen
 * (spec §5), then write through the API and map its field errors back onto the form. The form
 * is read first, so that a database outage (the session store included) answers with
 * everything the member typed instead of losing it (see keepFormOnOutage).
 */
export async function submitActivityForm(request: Request, context: AppLoadContext, mode: Mode) {
  const received = await readActivityForm(request)
  return keepFormOnOutage(
    context,
    async () => {
      const user = await requireUser(request, context)
      return saveActivityForm(request, context, received, mode, user.admin)
    },
    () => keptReply(received.formData, mode),
  )
}

async function readActivityForm(request: Request): Promise<Received> {
  const contentType = request.headers.get('Content-Type') ?? ''
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    // Not what the page sends (a script, a hand-made request): keep any text that came, ask again.
    const urlencoded = /^application\/x-www-form-urlencoded/i.test(contentType)
    const formData = urlencoded ? await request.formData().catch(() => new FormData()) : new FormData()
    return { formData, problem: 'not_multipart' }
  }
  let photoTooLarge = false
  const onFileTooLarge = () => void (photoTooLarge = true)
  const formData = await parseMultipartFormData(request, photoFormUploadHandler(request, onFileTooLarge))
  return { formData, problem: photoTooLarge ? 'photo_too_large' : null }
}

/** The outage reply: what the member typed, nothing saved, press the button again; the photo is chosen again. */
function keptReply(formData: FormData, mode: Mode) {
  const submission = parseWithZod(withStartTime(formData), { schema: activityFormSchema })
  const cover = formData.get('cover')
  const hadPhoto = cover instanceof File && cover.size > 0
  return {
    result: submission.reply({
      formErrors: [errorKey(mode.kind === 'edit' ? 'not_saved_edit' : 'not_saved_create')],
      fieldErrors: hadPhoto ? { cover: [errorKey('photo_again')] } : {},
    }),
    matches: [] as Place[],
    adminOptions: formData.get('adminOptions') === 'shown',
  }
}

async function saveActivityForm(request: Request, context: AppLoadContext, received: Received, mode: Mode, isAdmin: boolean) {
  const { formData, problem } = received
  if (problem === null) await pickTypedCity(request, context, formData)
  const submission = parseWithZod(withStartTime(formData), { schema: activityFormSchema })
  const fail = (fieldErrors: Record<string, string[]>, extra: { matches?: Place[]; status?: number; formError?: string; formErrors?: string[] } = {}) =>
    refusedForm(
      context,
      {
        result: submission.reply({ fieldErrors: { ...fieldErrors, '': extra.formErrors ?? [errorKey(extra.formError ?? 'incomplete')] } }),
        matches: extra.matches ?? [],
        adminOptions: false,
      },
      extra.status ?? 400,
    )
  if (problem === 'not_multipart') return fail({}, { status: 415, formError: 'not_multipart' })
  if (problem === 'photo_too_large') return fail({ cover: [errorKey('photo_too_large')] }, { status: 413 })
  if (submission.status !== 'success') {
    const query = formData.get('q')
    const needsPlace = Boolean(submission.error?.place) && typeof query === 'string'
    const matches = needsPlace ? await searchPlaces(request, context, query) : []
    return refusedForm(context, { result: submission.reply({ formErrors: [errorKey('incomplete')] }), matches, adminOptions: false }, 400)
  }
  const value = submission.value
  const api = getApi(request, context)
  const sourceId = mode.kind === 'duplicate' ? (await loadExperience(request, context, mode.from)).id : null

  const cover = formData.get('cover')
  let coverId: string | undefined
  if (cover instanceof File && cover.name && cover.size > 0) {
    try {
      coverId = (await api.media.upload('experience_cover', cover)).id
    } catch (error) {
      const photoProblem = error instanceof ApiError ? photoProblems[error.status] : undefined
      if (error instanceof ApiError && photoProblem) return fail({ cover: [errorKey(photoProblem)] }, { status: error.status })
      throw error
    }
  } else if (sourceId) {
    coverId = await api.media.duplicateCover(sourceId).then(
      (media) => media.id,
      () => undefined,
    )
  }

  const body = toApiBody(value, { coverId, isAdmin })
  try {
    const saved = mode.kind === 'edit' ? await api.experiences.update(mode.id, body) : await api.experiences.create(body)
    const key = mode.kind === 'edit' ? 'activities:toast.saved' : 'activities:toast.created'
    return redirectWithToast(context, `/activities/${saved.id}`, key)
  } catch (error) {
    // Someone else's activity (403) or a gone one (404) keeps its status: nothing changes.
    // Begun or cancelled meanwhile (an old tab): said plainly (issue 29 §4), nothing saved.
    const conflict = (code: string | null) => (code === 'experience_past' || code === 'experience_canceled' ? `activities:errors.${code}` : 'common:errors.conflict')
    const { status, fieldErrors, formErrors } = formErrorsFromApi(error, { fields: apiFieldToFormField, prefix: 'activities:form.errors.', conflict })
    return fail(fieldErrors, { status, ...(formErrors.length > 0 ? { formErrors } : {}) })
  }
}

/** One activity through the API, for the edit and duplicate pages; 404, 403 and 503 pages otherwise. */
export async function loadExperience(request: Request, context: AppLoadContext, id: string | null | undefined) {
  if (!id) throw data(null, { status: 404 })
  return getApi(request, context).experiences.get(id).catch(notFoundOnMissing)
}

function toApiBody(value: ActivityForm, options: { coverId?: string; isAdmin: boolean }): ExperienceInput {
  const online = value.venueType === 'online'
  return {
    title: value.title,
    description: value.description ?? '',
    venue_type: value.venueType,
    place_id: online ? null : (value.place ?? null),
    formatted_address: online ? null : (value.address ?? null),
    url: online ? (value.url ?? null) : null,
    start_date: value.startDate,
    start_time: value.startTime,
    duration_minutes: value.durationMinutes ?? 120,
    max_attendees: value.maxAttendees ?? null,
    ticket_url: value.ticketUrl ?? null,
    no_show_fee: value.noShowFee ?? null,
    ...(options.coverId ? { cover_photo: options.coverId } : {}),
    ...(options.isAdmin ? { is_hostless: value.isHostless === 'on', is_premium: value.isPremium === 'on' } : {}),
  }
}

/**
 * Without JavaScript the city field is free text: search it and ask the member to pick one of
 * the matches (spec §5: the location must come from the list).
 */
async function searchPlaces(request: Request, context: AppLoadContext, query: string) {
  if (query.trim().length < 2) return []
  return getApi(request, context).places.search(query, 6)
}

/** A city typed exactly as the list shows it ("Portland, OR") is taken as picked. */
async function pickTypedCity(request: Request, context: AppLoadContext, formData: FormData) {
  const query = formData.get('q')
  if (formData.get('place') || formData.get('venueType') === 'online' || typeof query !== 'string') return
  const wanted = query.trim().toLowerCase()
  const exact = (await searchPlaces(request, context, query)).find((place) => place.label.toLowerCase() === wanted)
  if (exact) formData.set('place', exact.id)
}

import type { LoaderFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, getOptionalUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing, unavailableOnServerError } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'

/** A list the page can show empty when the API has none to give (404), the API being down aside. */
function emptyWhenMissing(error: unknown): [] {
  if (error instanceof ApiError && error.status === 404) return []
  return unavailableOnServerError(error)
}

/**
 * A member's public profile as the viewer may see it (issue 13 §3, decision 027): the name only
 * for signed-out visitors, the generic label only for a suspended or banned member, otherwise
 * the profile, prompts, interests, the activities they host and (for another member) those in
 * common. Cancelled activities are left out, so a member's own page shows what others see.
 */
export async function loadProfile({ request, context }: Pick<LoaderFunctionArgs, 'request' | 'context'>, idOrSlug: string) {
  const api = getApi(request, context)
  const [viewer, profile, t] = await Promise.all([
    getOptionalUser(request, context),
    api.members.profile(idOrSlug).catch(notFoundOnMissing),
    getT(request, context, ['members', 'common']),
  ])
  const name = profile.display_name ?? t('common:member.generic')
  const base = { profile, name, title: t('members:profile.title', { name }), own: viewer?.id === profile.id }
  if (!viewer) return { ...base, view: 'signedOut' as const }
  if (profile.is_suspended) return { ...base, view: 'unavailable' as const }
  const [interests, prompts, hosting, inCommon, reach, block] = await Promise.all([
    api.profiles.interests(profile.id).catch(emptyWhenMissing),
    api.profiles.prompts(profile.id).catch(emptyWhenMissing),
    api.members.hosting(profile.id).catch(unavailableOnServerError),
    base.own ? null : api.members.inCommon(profile.id).catch(unavailableOnServerError),
    // "Message" shows only where a message could go (decision 030: never saying why not). If
    // the question fails, the button shows and the conversation's own refusal explains.
    base.own ? null : api.blocks.reachability(profile.id).catch(() => null),
    // Block or Unblock (decision 034); unknown when the question fails: the link then says Block
    // and the confirmation page reads the state afresh.
    base.own ? null : api.blocks.state(profile.id).catch(() => null),
  ])
  return {
    ...base,
    view: 'member' as const,
    interests,
    prompts,
    hosting: hosting.data.filter((experience) => !experience.canceled_at),
    inCommon: inCommon?.data ?? null,
    canMessage: !base.own && (reach?.can_message ?? true),
    isBlocked: block?.is_blocked ?? false,
  }
}
export type LoadedProfile = Awaited<ReturnType<typeof loadProfile>>

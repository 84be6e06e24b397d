/**
 * The web pages whose form carries photos, and how many photos each form carries: the one list
 * the Express host's body limit (`api/http/body-limit.ts`) and the web's form readers
 * (`app/utils/upload-handler.server.ts`) both read (docs/decisions/062). A page not listed here
 * takes no file: its body is limited to a plain form's size, and a file sent to it is refused.
 * `app/routes/photo-forms.test.ts` walks every route and proves that the pages whose form has a
 * file input are exactly these, so the list cannot drift from the routes.
 *
 * Paths are the routes' URL paths, `:name` for a parameter.
 */
export const photoForms = [
  // An activity's cover photo (spec §9).
  { path: '/create-activity', photos: 1 },
  { path: '/duplicate-activity', photos: 1 },
  { path: '/activities/:id/edit', photos: 1 },
  // The profile photo (spec §5; decision 024): in onboarding and in the profile editor.
  { path: '/get-started/profile-photo', photos: 1 },
  { path: '/account/edit', photos: 1 },
  // Identity verification: an ID and a selfie (decision 025).
  { path: '/get-started/verification', photos: 2 },
  { path: '/account/verification', photos: 2 },
] as const satisfies readonly { path: `/${string}`; photos: number }[]

export type PhotoFormPath = (typeof photoForms)[number]['path']

const matchers = photoForms.map(({ path, photos }) => ({
  // A parameter is one path segment; `.data` is the same form submitted with JavaScript (Remix's single fetch).
  pattern: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]\w*/gi, '[^/]+')}(?:\\.data)?$`),
  photos,
}))

/** How many photos the form at `pathname` carries: 0 for a page not in `photoForms`. */
export function photosAt(pathname: string): number {
  return matchers.find(({ pattern }) => pattern.test(pathname))?.photos ?? 0
}

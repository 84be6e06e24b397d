import type { LoaderFunctionArgs } from '@remix-run/node'
import { verificationFiles, type VerificationFile } from '#contract/verification.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'

/**
 * A pending request's photo for the review page, decrypted by the API for reviewers only
 * (anyone else: its 404). Never kept by any cache (decision 025).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const file = params.file as VerificationFile
  if (!verificationFiles.includes(file)) throw new Response(null, { status: 404 })
  const bytes = await getApi(request, context).verification.photo(params.id ?? '', file).catch(notFoundOnMissing)
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

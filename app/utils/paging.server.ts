import { queryInteger } from '#contract/input-validation.ts'

/**
 * The `page` of a list page's address: plain decimal digits only (`page=0x10` is not page 16);
 * anything else is the first page. Server-only, so the page's browser bundle does not carry zod.
 */
const pageParam = queryInteger('page_invalid', (page) => page.min(1)).catch(1)

export function pageFrom(url: URL): number {
  return pageParam.parse(url.searchParams.get('page') ?? '1')
}

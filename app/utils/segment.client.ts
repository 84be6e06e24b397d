import { keptQueryParameters } from '#contract/campaign-parameters.ts'

/**
 * Segment's browser library (`@segment/analytics-next`, decision 081), loaded only when the root
 * loader hands a write key: SEGMENT_WRITE_KEY is set, the visitor consented (or needs not be
 * asked and sent no GPC or Do Not Track), and no staff member is viewing as a member. The first
 * page of a visit is sent by the server (it saw the document); this sends the pages reached by
 * following links in the page (which the server sees only as data requests), each with only its
 * path and campaign parameters, as the server records them.
 */
type Browser = Awaited<ReturnType<typeof import('@segment/analytics-next').AnalyticsBrowser.load>>[0]

let started: { writeKey: string; browser: Promise<Browser | null> } | null = null

export function startSegment(writeKey: string, memberId: string | null) {
  if (started?.writeKey === writeKey) return started.browser
  const browser = import('@segment/analytics-next')
    .then(async ({ AnalyticsBrowser }) => {
      const [analytics] = await AnalyticsBrowser.load({ writeKey }, { initialPageview: false })
      if (memberId) await analytics.identify(memberId)
      return analytics
    })
    // Blocked by the browser or an extension: nothing to send, nothing to report.
    .catch(() => null)
  started = { writeKey, browser }
  return browser
}

/** `/activities/42?utm_source=mail&q=x` → the page with only its campaign parameters. */
export function strippedLocation(pathname: string, search: string) {
  const params = new URLSearchParams(search)
  const kept = new URLSearchParams()
  for (const name of keptQueryParameters) {
    const value = params.get(name)
    if (value) kept.set(name, value)
  }
  const query = kept.toString()
  return { path: pathname, search: query ? `?${query}` : '' }
}

export function sendSegmentPage(writeKey: string, memberId: string | null, pathname: string, search: string) {
  const { path, search: kept } = strippedLocation(pathname, search)
  void startSegment(writeKey, memberId).then((analytics) =>
    analytics?.page(undefined, undefined, { path, search: kept, url: `${window.location.origin}${path}${kept}`, referrer: '', title: '' }),
  )
}

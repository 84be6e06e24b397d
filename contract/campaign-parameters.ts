/**
 * The query parameters a recorded path keeps (decision 081): the campaign's, every other one is
 * dropped. Zod-free, so the browser's Segment pages share it without pulling in the schemas.
 */
export const keptQueryParameters = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const

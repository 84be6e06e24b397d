/**
 * The help center's articles (issue 33 §4, decision 088), in the order the help center lists
 * them. The slug is the article's address (`/help/<slug>`), the same in every language; its
 * words are in the `help-articles` locale files, under `articles.<slug>`. Each names the articles
 * it leads on to and the pages of Circle 55 it talks about (labels under `places.<key>`).
 */
export const helpArticles = [
  {
    slug: 'getting-started',
    related: ['finding-activities', 'accessibility', 'safety-and-scams'],
    places: [
      ['/signup', 'join'],
      ['/login', 'signIn'],
      ['/account', 'account'],
    ],
  },
  {
    slug: 'finding-activities',
    related: ['finding-other-members-at-activities', 'payments-and-fees', 'hosting-an-activity'],
    places: [
      ['/activities', 'explore'],
      ['/attending', 'attending'],
      ['/company/attendance-policy', 'attendancePolicy'],
      ['/account/notification-settings', 'notificationSettings'],
    ],
  },
  {
    slug: 'hosting-an-activity',
    related: ['finding-other-members-at-activities', 'payments-and-fees', 'safety-and-scams'],
    places: [
      ['/create-activity', 'create'],
      ['/attending?hosting=true', 'hosting'],
      ['/company/community-guidelines', 'guidelines'],
    ],
  },
  {
    slug: 'finding-other-members-at-activities',
    related: ['finding-activities', 'safety-and-scams', 'hosting-an-activity'],
    places: [
      ['/attending', 'attending'],
      ['/messenger', 'messages'],
      ['/members', 'members'],
    ],
  },
  {
    slug: 'safety-and-scams',
    related: ['finding-other-members-at-activities', 'payments-and-fees', 'getting-started'],
    places: [
      ['/messenger', 'messages'],
      ['/account/verification', 'verification'],
      ['/company/community-guidelines', 'guidelines'],
      ['/help/chat', 'helpChat'],
    ],
  },
  {
    slug: 'payments-and-fees',
    related: ['finding-activities', 'hosting-an-activity', 'safety-and-scams'],
    places: [
      ['/pricing', 'pricing'],
      ['/account/subscription', 'subscription'],
      ['/account/payments', 'payments'],
      ['/account/fees', 'fees'],
      ['/company/attendance-policy', 'attendancePolicy'],
    ],
  },
  {
    slug: 'accessibility',
    related: ['getting-started', 'finding-activities', 'safety-and-scams'],
    places: [
      ['/account', 'account'],
      ['/account/notification-settings', 'notificationSettings'],
    ],
  },
] as const satisfies readonly { slug: string; related: readonly string[]; places: readonly (readonly [string, string])[] }[]

export type HelpArticleSlug = (typeof helpArticles)[number]['slug']

export const helpArticleSlugs: readonly HelpArticleSlug[] = helpArticles.map((article) => article.slug)

export function isHelpArticleSlug(value: string | undefined): value is HelpArticleSlug {
  return value !== undefined && (helpArticleSlugs as readonly string[]).includes(value)
}

export const helpCenterPath = '/help'
export const helpArticlePath = (slug: string) => `${helpCenterPath}/${slug}`

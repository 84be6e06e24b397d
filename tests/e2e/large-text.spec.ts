import { mkdirSync } from 'node:fs'
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test'
import { createDatabase } from '../../api/db/database.ts'
import { createActivity, demoPassword, flash, localStart, member } from './activity-helpers.ts'
import { db, freshMember, savedCard } from './factories.ts'
import { smallTargets, submitWithoutNativeValidation } from './axe.ts'
import {
  expect,
  type Language,
  newVisitor,
  setLanguage,
  setLanguageCookie,
  signIn,
  signInOverHttp,
  switchLanguage,
  test,
  timed,
  uniqueEmail,
} from './helpers.ts'

/**
 * QUALITY.md "Large text" and issue 12 §1, §6: at 390 px wide with the browser's text size at 200%
 * (the member's own font-size setting, which the app's rem units follow), on every member page,
 * signed out and signed in: no word is split across lines, nothing scrolls sideways, a select shows
 * its whole choice, and each fixed or sticky bar (bottom navigation, toast) covers under 20% of
 * the screen. Then the targets and spacing of the host's actions and the confirmation pages, the
 * activity card as one link, and the toasts (not over the content, readable on the page after).
 *
 * `SCREENSHOTS=1` also writes docs/screenshots/ (390 px, text at 200%), which the normal run leaves alone.
 */

const phone = { width: 390, height: 844 }
const maxBarShare = 0.2

/**
 * A phone-sized window with touch. Not Chromium's mobile mode: a phone zooms out to show a page
 * that is too wide, which would hide what sticks out; here it stays 390 px and the check sees it.
 */
const phoneWindow = { viewport: phone, hasTouch: true }

/** A visitor with a phone-sized window; `largeTextPage` gives its pages the 200% text setting. */
async function visitor(browser: Browser, options: { language?: Language } = {}) {
  const context = await newVisitor(browser, phoneWindow)
  if (options.language) await setLanguageCookie(context, options.language)
  return context
}

/**
 * Chromium's own font-size setting (Settings → Appearance → Font size), as a member sets it: the
 * default text size goes from 16 to 32 px (fixed-width from 13 to 26). The page's rem units follow.
 */
async function largeTextPage(context: BrowserContext) {
  const page = await context.newPage()
  await setLargeText(page)
  return page
}

/** The session stays open: Chromium drops the setting with it when the next page loads. */
async function setLargeText(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } })
}

/** What a page does wrong at this size, each line naming the page. */
async function layoutProblems(page: Page, name: string): Promise<string[]> {
  const found = await page.evaluate(
    ({ maxShare, phoneWidth }) => {
      const problems: string[] = []
      const describe = (element: Element) => {
        const classes =
          typeof element.className === 'string' && element.className
            ? `.${element.className.trim().split(/\s+/).join('.')}`
            : ''
        return `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${classes}> "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`
      }

      // 1. A word on more than one line box. Words are runs of letters and digits: a URL or an
      //    email address may wrap between its parts ("example." / "com"), never inside one.
      const unsplittable = /[\p{L}\p{N}\p{M}'’]{2,}/gu
      const skip = new Set([
        'SCRIPT',
        'STYLE',
        'NOSCRIPT',
        'TEMPLATE',
        'SELECT',
        'OPTION',
        'OPTGROUP',
        'TEXTAREA',
      ])
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      const range = document.createRange()
      const split = new Set<string>()
      for (
        let node = walker.nextNode() as Text | null;
        node;
        node = walker.nextNode() as Text | null
      ) {
        const parent = node.parentElement
        if (
          !parent ||
          skip.has(parent.tagName) ||
          parent.closest('select, textarea, [hidden]') ||
          !parent.checkVisibility({ visibilityProperty: true })
        )
          continue
        for (const match of node.data.matchAll(unsplittable)) {
          range.setStart(node, match.index)
          range.setEnd(node, match.index + match[0].length)
          const boxes = Array.from(range.getClientRects()).filter(
            (box) => box.width > 0.5 && box.height > 0,
          )
          boxes.sort((a, b) => a.top - b.top)
          // A break at a soft hyphen (a long compound, "Gebruiks-/voorwaarden") is allowed;
          // Chromium counts the hyphen it draws there as part of the next word.
          if (node.data[match.index - 1] === '\u00ad' && boxes.length > 1) boxes.shift()
          let lines = 0
          let lineBottom = -Infinity
          for (const box of boxes) {
            // A box starting below the middle of the previous one is on the next line.
            if (box.top >= lineBottom - box.height / 2) lines++
            lineBottom = Math.max(lineBottom, box.bottom)
          }
          if (lines > 1)
            split.add(`word split across ${lines} lines: "${match[0]}" in ${describe(parent)}`)
        }
      }
      problems.push(...split)

      // 2. Sideways scrolling, with what sticks out.
      const width = window.innerWidth
      const scrollWidth = document.documentElement.scrollWidth
      if (scrollWidth > width || width > phoneWidth) {
        const wide = Array.from(document.body.querySelectorAll('*'))
          .filter(
            (element) =>
              element.getBoundingClientRect().right > phoneWidth + 0.5 &&
              element.checkVisibility() &&
              // Where it starts: the parent still fits.
              (element.parentElement?.getBoundingClientRect().right ?? 0) <= phoneWidth + 0.5,
          )
          .slice(0, 5)
          .map(describe)
        problems.push(
          `scrolls sideways: ${scrollWidth}px of content in a ${width}px window; wider: ${wide.join(', ')}`,
        )
      }

      // 3. Fixed and sticky bars: each under 20% of the window's height.
      for (const element of Array.from(document.body.querySelectorAll('*'))) {
        const position = getComputedStyle(element).position
        if (position !== 'fixed' && position !== 'sticky') continue
        const box = element.getBoundingClientRect()
        if (
          box.height <= 2 ||
          box.width <= 2 ||
          !element.checkVisibility({ visibilityProperty: true })
        )
          continue
        const share = box.height / window.innerHeight
        if (share >= maxShare)
          problems.push(
            `${position} bar covers ${Math.round(share * 100)}% of the screen's height: ${describe(element)}`,
          )
      }

      // 5. Nothing of a fixed bar is off the screen (a fixed bar never makes the page scroll
      //    sideways, so check 2 does not see it), and a badge covers no word of its link.
      for (const bar of Array.from(document.body.querySelectorAll('*'))) {
        if (getComputedStyle(bar).position !== 'fixed' || !bar.checkVisibility({ visibilityProperty: true })) continue
        const barBox = bar.getBoundingClientRect()
        if (barBox.height <= 2 || barBox.width <= 2) continue
        const off = Array.from(bar.querySelectorAll('*'))
          .filter((element) => {
            const box = element.getBoundingClientRect()
            return element.checkVisibility() && box.width > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5)
          })
          .slice(0, 3)
        if (off.length) problems.push(`off the screen in a fixed bar: ${off.map(describe).join(', ')}`)
        for (const badge of Array.from(bar.querySelectorAll('.badge'))) {
          const badgeBox = badge.getBoundingClientRect()
          const link = badge.closest('a') ?? bar
          const texts = document.createTreeWalker(link, NodeFilter.SHOW_TEXT)
          for (let text = texts.nextNode(); text; text = texts.nextNode()) {
            // Text for screen readers only (a 1 px clipped box) is not on the screen to cover.
            const parent = text.parentElement
            if (badge.contains(text) || !text.textContent?.trim() || !parent?.checkVisibility() || parent.getBoundingClientRect().width <= 1) continue
            range.selectNodeContents(text)
            const covered = Array.from(range.getClientRects()).some(
              (box) => Math.min(box.right, badgeBox.right) - Math.max(box.left, badgeBox.left) > 1 && Math.min(box.bottom, badgeBox.bottom) - Math.max(box.top, badgeBox.top) > 1,
            )
            if (covered) problems.push(`a badge covers "${text.textContent.trim()}": ${describe(badge)}`)
          }
        }
      }

      // 4. A select shows the whole of its chosen option (a select cannot wrap its text).
      const canvas = document.createElement('canvas').getContext('2d')!
      for (const select of Array.from(document.querySelectorAll('select'))) {
        if (!select.checkVisibility({ visibilityProperty: true })) continue
        const style = getComputedStyle(select)
        canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
        const text = select.selectedOptions[0]?.text ?? ''
        const needed = canvas.measureText(text).width
        const room =
          select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        if (needed > room + 0.5)
          problems.push(
            `select #${select.id} cuts "${text}" (${Math.round(needed)}px of text in ${Math.round(room)}px)`,
          )
      }
      return problems
    },
    { maxShare: maxBarShare, phoneWidth: phone.width },
  )
  return found.map((problem) => `${name} (${new URL(page.url()).pathname}): ${problem}`)
}

/** Checks pages one after another and reports them all at the end. */
class LayoutChecker {
  readonly found: string[] = []
  checked = 0
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }

  async check(name: string) {
    await this.page.waitForLoadState('load')
    // The 200% setting is in force: the app's 118.75% root size gives 38 px instead of 19 px.
    expect(
      await this.page.evaluate(() => getComputedStyle(document.documentElement).fontSize),
      `text size on ${name}`,
    ).toBe('38px')
    this.found.push(...(await timed('layout check', () => layoutProblems(this.page, name))))
    this.checked++
  }

  async visit(path: string, status = 200) {
    const response = await this.page.goto(path)
    expect(response?.status(), `status of ${path}`).toBe(status)
    await this.check(path)
  }

  /** Empties `field`, sends its form without the browser's own checks, and checks the errors. */
  async withErrors(field: string, name: string) {
    await this.page.locator(field).fill('')
    await submitWithoutNativeValidation(this.page, field)
    await this.check(name)
  }

  report() {
    expect(
      this.found,
      `${this.found.length} problem(s) on ${this.checked} page(s) at 390 px with the text at 200%:\n${this.found.join('\n')}`,
    ).toEqual([])
  }
}

/**
 * A French or Dutch page's layout problems and its targets under 44 px: the targets with this
 * language's words (its wording rules are checked in the page catalogue, without a browser).
 */
async function wordsAndTargets(page: Page, name: string) {
  return [...(await layoutProblems(page, name)), ...(await smallTargets(page)).map((target) => `${name}: under 44 px: ${target}`)]
}

/** A demo member signed in at 200%, in English; `throughPages` signs in with the form (its toast shows). */
async function signedInAs(browser: Browser, email: string, options: { throughPages?: boolean } = {}) {
  const context = await visitor(browser)
  const page = await largeTextPage(context)
  if (options.throughPages) {
    await signIn(page, email, demoPassword)
    if ((await page.locator('html').getAttribute('lang')) !== 'en') await switchLanguage(page, 'en')
  } else await signInOverHttp(context, email, demoPassword, 'en')
  return { context, page, checker: new LayoutChecker(page) }
}

/** The links of the activity cards on the page. */
async function cardLinks(page: Page) {
  return page
    .locator('.experience-card h2 a, .experience-card h3 a')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
}

const contentPages = [
  '/company/about',
  '/company/community-guidelines',
  '/company/attendance-policy',
  '/legal/privacy',
  '/legal/terms',
]

test.describe('text at 200% on a 390 px phone', () => {
  test('signed out: home, Explore, an activity, content pages, sign in and sign up, 404', async ({
    browser,
  }) => {
    test.setTimeout(120_000)
    const context = await visitor(browser)
    const page = await largeTextPage(context)
    const s = new LayoutChecker(page)
    await s.visit('/')
    await s.visit('/activities?date=any-day&distance=50&q=Portland')
    const [activity] = await cardLinks(page)
    expect(activity, 'an activity on Explore').toBeTruthy()
    await s.visit(activity!)
    for (const path of contentPages) await s.visit(path)
    await s.visit('/no-such-page', 404)

    await page.goto('/login')
    await expect(page).toHaveURL(/\/identity\/[^/?]+$/)
    const uid = /\/identity\/([^/?]+)/.exec(page.url())![1]
    await s.check('identity: sign in')
    await s.visit(`/identity/${uid}/code`)
    await s.visit(`/identity/${uid}/reset`)
    await page.goto('/signup')
    await expect(page).toHaveURL(/\/identity\/[^/]+\/signup$/)
    await s.check('identity: sign up')
    await s.withErrors('#firstName', 'identity: sign up with errors')
    await context.close()
    s.report()
  })

  test('signed in as a member: home, Explore, activities as attendee and on the notify list, My activities in each view, account, get started, forms', async ({
    browser,
  }) => {
    test.setTimeout(180_000)
    const { context, page, checker: s } = await signedInAs(browser, 'member@demo.test', { throughPages: true })
    await s.check('after signing in (with its toast)')
    await s.visit('/')
    await s.visit('/activities')
    await s.visit('/activities?date=any-day&distance=100&q=Portland')
    for (const view of [
      'type=upcoming',
      'type=past',
      'type=upcoming&hosting=true',
      'type=past&hosting=true',
    ])
      await s.visit(`/attending?${view}`)
    // Every upcoming activity the member is going to or waiting for (addresses of every length).
    await page.goto('/attending?type=upcoming')
    for (const path of await cardLinks(page)) await s.visit(path)
    await s.visit('/account')
    await s.visit('/account?confirm=delete')
    await s.visit('/account/email')
    await s.withErrors('#email', '/account/email with errors')
    await s.visit('/account/edit')
    for (const section of ['name', 'about', 'interests', 'prompts', 'city', 'phone', 'privacy', 'language']) await s.visit(`/account/edit/${section}`)
    await page.goto('/account/edit/name')
    await s.withErrors('#firstName', '/account/edit/name with errors')
    await s.visit('/account/notification-settings')
    // Public profiles and Members (issue 13 §3): the list, a search, a profile, one's own, a report.
    await s.visit('/members')
    await s.visit('/members?name=wal')
    await page.goto('/members')
    const [profile] = await page.locator('.member-list a[href^="/p/"]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    expect(profile, 'a member to meet').toBeTruthy()
    await s.visit(profile!)
    await s.visit(`${profile!}/report`)
    await s.visit('/p')
    // Messages (issue 14): the list, and a conversation opened with "Message" on that profile.
    await page.goto(profile!)
    await page.getByRole('button', { name: 'Message' }).click()
    await expect(page).toHaveURL(/\/messenger\?channel=/)
    const conversation = new URL(page.url())
    await s.visit(conversation.pathname + conversation.search)
    await s.visit('/messenger')
    await s.visit('/get-started')
    await s.withErrors('#firstName', '/get-started with errors')
    await s.visit('/get-started/location')
    await s.visit('/get-started/profile-photo')
    await s.visit('/get-started/verification')
    await s.visit('/get-started/notifications')
    await s.visit('/get-started/success')
    await s.visit('/account/verification')
    await s.visit('/welcome-back')
    await s.visit('/create-activity')
    await s.withErrors('#title', '/create-activity with errors')
    await s.visit('/logout')
    for (const path of contentPages) await s.visit(path)
    await s.visit('/no-such-page', 404)
    await context.close()
    s.report()
  })

  test('signed in as a host: the activity with host tools, edit, duplicate, cancel confirmation', async ({
    browser,
  }) => {
    test.setTimeout(120_000)
    const { context, page, checker: s } = await signedInAs(browser, 'host@demo.test')
    await s.visit('/attending?type=upcoming&hosting=true')
    const [hosted] = await cardLinks(page)
    expect(hosted, 'an activity the host runs').toBeTruthy()
    await s.visit(hosted!)
    await expect(page.getByRole('region', { name: 'Manage your activity' })).toBeVisible()
    await s.visit(`${hosted}/edit`)
    await s.visit(`${hosted}?confirm=cancel-activity`)
    await s.visit(`/duplicate-activity?from=${hosted!.split('/').pop()}`)
    await context.close()
    s.report()
  })

  test('signed in as a member: notifications, money, Medicare, invitations, help, privacy choices, a host’s numbers', async ({
    browser,
  }) => {
    test.setTimeout(120_000)
    const { context, page, checker: s } = await signedInAs(browser, 'host@demo.test')
    for (const path of ['/notifications', '/account/payments', '/account/fees', '/account/subscription', '/account/medicare', '/account/phone', '/pricing', '/referrals', '/help', '/privacy-choices', '/attending/numbers', '/get-started/subscription', '/get-started/medicare']) await s.visit(path)
    await page.goto('/help')
    const [article] = await page.locator('main a[href^="/help/"]:not([href="/help/chat"])').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    expect(article, 'a help page').toBeTruthy()
    await s.visit(article!)
    await s.visit('/help/chat')
    await context.close()
    s.report()
  })

  test('signed in as an admin: the team’s pages, lists and one of each', async ({ browser }) => {
    test.setTimeout(120_000)
    // Something in each queue, from a member with a long name and address: a report and a question.
    const member = await freshMember({ first_name: 'Geneviève', last_name: 'Van der Berghe-Étienne', email: uniqueEmail('genevieve.vanderberghe-etienne') })
    const reported = await freshMember({ first_name: 'Bartholomew', last_name: 'Featherstonehaugh' })
    const report = await db().insertInto('reports').values({ reporter_id: member.id, reported_user_id: reported.id, reason: 'fake_or_scam', details: 'Il m’a demandé de lui envoyer des cartes-cadeaux pour « débloquer » un héritage.' }).returning('id').executeTakeFirstOrThrow()
    const support = await db().insertInto('message_channels').values({ kind: 'support', direct_key: `support:${member.id}`, created_by: member.id, last_message_at: new Date() }).returning('id').executeTakeFirstOrThrow()
    await db().insertInto('channel_memberships').values({ channel_id: support.id, user_id: member.id, is_accepted: true }).execute()
    await db().insertInto('messages').values({ channel_id: support.id, user_id: member.id, body: 'Comment est-ce que je change mon adresse électronique ?' }).execute()
    // The audit log's longest codes: support viewed the member's account, and the member signed out everywhere.
    const agent = await freshMember({ staff_role: 'support' })
    await db()
      .insertInto('audit_log')
      .values([
        { actor_id: agent.id, action: 'impersonation.start', target_type: 'user', target_id: member.id, data: JSON.stringify({ reason: 'Elle ne trouve plus son activité de jeudi.', expires_at: new Date().toISOString() }) },
        { actor_id: member.id, impersonator_id: agent.id, action: 'impersonation.call', data: JSON.stringify({ method: 'PUT', path: '/v1/users/me', status: 403 }) },
        { actor_id: member.id, action: 'user.sign_out_everywhere', target_type: 'user', target_id: member.id },
      ])
      .execute()

    const { context, checker: s } = await signedInAs(browser, 'admin@demo.test')
    for (const path of ['/admin', '/admin/staff', '/admin/payments', '/admin/partners', '/admin/medicare', '/admin/audit', '/admin/flags', '/admin/banners', '/admin/analytics', '/admin/verifications', '/admin/reports', '/admin/support', `/admin/members?q=${encodeURIComponent(member.email)}`]) await s.visit(path)
    // This member's own: the report, the question and the account.
    for (const path of [`/admin/reports/${report.id}`, `/admin/support/${support.id}`, `/admin/members/${member.id}`]) await s.visit(path)
    await context.close()
    s.report()
  })

  test('French and Dutch: the pages with the longest words keep them whole', async ({
    browser,
  }) => {
    const found: string[] = []
    for (const language of ['fr', 'nl'] as const) {
      const context = await visitor(browser, { language })
      const page = await largeTextPage(context)
      for (const path of ['/', '/activities', ...contentPages]) {
        await page.goto(path)
        found.push(...(await wordsAndTargets(page, `${path} in ${language}`)))
      }
      await context.close()
      // A member of its own: the language is saved on the account.
      const member = await signedInAs(browser, 'member35@demo.test')
      await setLanguage(member.context, language)
      for (const path of ['/attending', '/account', '/account/email', '/account/edit', '/account/edit/about', '/account/edit/interests', '/account/edit/prompts', '/account/edit/privacy', '/create-activity', '/members', '/p', '/messenger']) {
        await member.page.goto(path)
        found.push(...(await wordsAndTargets(member.page, `${path} in ${language}`)))
      }
      await member.context.close()
    }
    expect(found, found.join('\n')).toEqual([])
  })
})

/**
 * A conversation between two demo members, written straight into the server's database (as if
 * `writer` had sent `count` messages `reader` has not read yet), and as many unread notifications
 * for `reader` about it: the badges at their widest ("9+"). Returns the conversation's address.
 */
async function unreadConversation(readerEmail: string, writerEmail: string, count: number, texts: string[]) {
  const databaseUrl = process.env.E2E_DATABASE_URL
  if (!databaseUrl) throw new Error('Run through scripts/e2e.ts, which gives the server’s database')
  const { db } = createDatabase(databaseUrl)
  try {
    const users = await db.selectFrom('users').select(['id', 'email']).where('email', 'in', [readerEmail, writerEmail]).execute()
    const reader = users.find((user) => user.email === readerEmail)!.id
    const writer = users.find((user) => user.email === writerEmail)!.id
    const key = [reader, writer].sort().join(':')
    await db.insertInto('message_channels').values({ kind: 'direct', direct_key: key, created_by: writer, last_message_at: new Date() }).onConflict((conflict) => conflict.column('direct_key').doNothing()).execute()
    const channel = (await db.selectFrom('message_channels').select('id').where('direct_key', '=', key).executeTakeFirstOrThrow()).id
    await db
      .insertInto('channel_memberships')
      .values([reader, writer].map((user_id) => ({ channel_id: channel, user_id, is_accepted: true })))
      .onConflict((conflict) => conflict.columns(['channel_id', 'user_id']).doNothing())
      .execute()
    await db
      .insertInto('messages')
      .values(Array.from({ length: count }, (_, index) => ({ channel_id: channel, user_id: writer, body: texts[index % texts.length]! })))
      .execute()
    await db
      .insertInto('notifications')
      .values(Array.from({ length: count }, () => ({ user_id: reader, type: 'message.new', data: JSON.stringify({ channel_id: channel }) })))
      .execute()
    return `/messenger?channel=${channel}`
  } finally {
    await db.destroy()
  }
}

/** What a member writes in each language: long words, a street address, a question. */
const messages = {
  en: ['Shall we meet at the Multnomah County Central Library on Saturday afternoon?', 'Wonderful, see you there!'],
  fr: ['Est-ce qu’on se retrouve à la bibliothèque centrale du comté de Multnomah samedi après-midi ?', 'Formidable, à samedi !'],
  nl: ['Zullen we zaterdagmiddag afspreken bij de centrale bibliotheek van Multnomah County?', 'Geweldig, tot zaterdag!'],
} as const

/** The bottom bar's and the header's words in each language: the pages' own titles. */
const navWords = {
  en: { bar: ['Home', 'Find activities', 'My activities', 'Messages'], members: 'Members', notifications: 'Notifications', account: 'Account' },
  fr: { bar: ['Accueil', 'Trouver des activités', 'Mes activités', 'Messages'], members: 'Membres', notifications: 'Notifications', account: 'Compte' },
  nl: { bar: ['Start', 'Activiteiten vinden', 'Mijn activiteiten', 'Berichten'], members: 'Leden', notifications: 'Meldingen', account: 'Account' },
} as const

test.describe('a phone in English, French and Dutch (issue 29 §4)', () => {
  test('at 390 px with the text at 200%: the bottom bar says the pages’ own words, its badge beside the icon; Members, Notifications and Account are one tap away', async ({
    browser,
  }) => {
    test.setTimeout(180_000)
    await unreadConversation('member285@demo.test', 'member286@demo.test', 12, [...messages.en])
    const context = await visitor(browser)
    const page = await largeTextPage(context)
    await signInOverHttp(context, 'member285@demo.test', demoPassword)
    const found: string[] = []
    for (const language of ['en', 'fr', 'nl'] as const) {
      const words = navWords[language]
      await setLanguage(context, language)
      await page.goto('/')
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('38px')
      found.push(...(await layoutProblems(page, `home in ${language}, with badges`)))

      // The bar: the pages' titles in full (never "Calendar"), the unread count beside the icon.
      const bar = page.getByRole('navigation', { name: language === 'en' ? 'Quick links' : language === 'fr' ? 'Accès rapide' : 'Snelle links' })
      const labels = await bar.locator('a .bottom-nav__label').evaluateAll((spans) => spans.map((span) => (span as HTMLElement).innerText.replace(/\s+/g, ' ').trim()))
      expect(labels, `the bar in ${language}`).toEqual(words.bar)
      const messagesItem = bar.getByRole('link', { name: new RegExp(`^${words.bar[3]}`) })
      const badge = messagesItem.locator('.badge')
      await expect(badge).toHaveText(/^9\+/)
      const badgeBox = (await badge.boundingBox())!
      const labelBox = (await messagesItem.locator('.bottom-nav__label').boundingBox())!
      expect(badgeBox.y + badgeBox.height, `the badge is above the word in ${language}`).toBeLessThanOrEqual(labelBox.y + 1)
      const barBox = (await bar.boundingBox())!
      expect(barBox.height / phone.height, `the bar's share of the screen in ${language}`).toBeLessThan(maxBarShare)

      // The header, at the top of the page: Members, Notifications (with its count) and Account, one tap each.
      const header = page.getByRole('navigation', { name: language === 'en' ? 'Main' : language === 'fr' ? 'Menu principal' : 'Hoofdmenu' })
      for (const name of [words.members, words.notifications, words.account]) {
        const link = header.getByRole('link', { name: new RegExp(`^${name}`) })
        await expect(link, `${name} in the header`).toBeVisible()
        const box = (await link.boundingBox())!
        expect(box.y + box.height, `${name} is on the first screen`).toBeLessThanOrEqual(phone.height - barBox.height)
        expect(box.height, `${name} is a 44 px target`).toBeGreaterThanOrEqual(44)
      }
      await expect(header.getByRole('link', { name: new RegExp(`^${words.notifications}`) }).locator('.badge')).toHaveText(/^9\+/)
      // Each opens its page, titled with the same words.
      for (const [link, title] of [
        [header.getByRole('link', { name: new RegExp(`^${words.members}$`) }), words.members],
        [header.getByRole('link', { name: new RegExp(`^${words.notifications}`) }), words.notifications],
        [bar.getByRole('link', { name: words.bar[1], exact: true }), words.bar[1]],
        [bar.getByRole('link', { name: words.bar[2], exact: true }), words.bar[2]],
      ] as const) {
        await link.click()
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
        found.push(...(await layoutProblems(page, `${title} in ${language}`)))
      }
    }
    await switchLanguage(page, 'en')
    await context.close()
    expect(found, found.join('\n')).toEqual([])
  })

  for (const language of ['fr', 'nl'] as const) {
    test(`in ${language === 'fr' ? 'French' : 'Dutch'} at 390 px, at the normal text size and at 200%: activities, profiles, the messenger`, async ({ browser }) => {
      test.setTimeout(240_000)
      const email = language === 'fr' ? 'member283@demo.test' : 'member284@demo.test'
      const conversation = await unreadConversation(email, 'member286@demo.test', 2, [...messages[language]])
      // An activity of their own with a no-show fee: its label is the longest of the page's ("Frais en cas d'absence").
      const host = await member(browser, email)
      const hosted = await createActivity(host, { title: language === 'fr' ? 'Atelier d’écriture et conversation' : 'Schrijfatelier en gesprek', fee: '12.50' })
      await host.context().close()
      const context = await visitor(browser)
      const normal = await context.newPage()
      await signInOverHttp(context, email, demoPassword, language)
      await normal.goto('/activities?date=any-day&distance=50&q=Portland')
      const activities = [`/activities/${hosted}`, ...(await cardLinks(normal))]
      expect(activities.length, 'activities in Portland').toBeGreaterThan(3)
      await normal.goto('/members')
      const [profile] = await normal.locator('.member-list a[href^="/p/"]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
      expect(profile, 'a member to meet').toBeTruthy()
      const paths = [...activities, '/p', profile!, '/account/edit', '/account/edit/about', '/account/edit/privacy', '/messenger', conversation]
      const large = await largeTextPage(context)
      const found: string[] = []
      for (const [page, size, fontSize] of [
        [normal, 'normal text', '19px'],
        [large, 'text at 200%', '38px'],
      ] as const) {
        for (const path of paths) {
          const response = await page.goto(path)
          expect(response?.status(), `status of ${path}`).toBe(200)
          expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize), `text size on ${path}`).toBe(fontSize)
          found.push(...(await wordsAndTargets(page, `${path} in ${language}, ${size}`)))
        }
      }
      // Times name the zone as members in the US know it ("PST", "PDT"), never "UTC−8".
      await normal.goto(activities[0]!)
      await expect(normal.locator('dl.details dd').first()).toHaveText(/ (PST|PDT|MST|MDT)$/)
      await context.close()
      expect(found, `${found.length} problem(s):\n${found.join('\n')}`).toEqual([])
    })
  }
})

/** Every visible target in `area` is at least 44 CSS px tall (QUALITY.md). */
async function expectTall(targets: Locator, what: string) {
  const boxes = await targets.evaluateAll((elements) =>
    elements
      .filter((element) => element.checkVisibility())
      .map((element) => ({
        text: (element.textContent ?? '').trim(),
        height: element.getBoundingClientRect().height,
      })),
  )
  expect(boxes.length, `${what}: targets`).toBeGreaterThan(0)
  for (const box of boxes)
    expect(box.height, `${what}: "${box.text}" is ${box.height}px tall`).toBeGreaterThanOrEqual(44)
}

/** The two buttons of a confirmation are at least 16 px apart, whichever way they sit. */
async function expectApart(first: Locator, second: Locator, what: string) {
  const a = (await first.boundingBox())!
  const b = (await second.boundingBox())!
  const horizontal = Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width))
  const vertical = Math.max(b.y - (a.y + a.height), a.y - (b.y + b.height))
  expect(
    Math.max(horizontal, vertical),
    `${what}: space between the two buttons`,
  ).toBeGreaterThanOrEqual(16)
}

test.describe('targets, confirmations and the activity card', () => {
  for (const size of ['a 390 px phone with the text at 200%', 'a desktop window'] as const) {
    test(`host tools and confirmation buttons on ${size}`, async ({ browser }) => {
      test.setTimeout(120_000)
      const large = size !== 'a desktop window'
      const open = async (email: string, js: boolean) => {
        const context = large
          ? await newVisitor(browser, { ...phoneWindow, javaScriptEnabled: js })
          : await newVisitor(browser, {
              viewport: { width: 1280, height: 800 },
              javaScriptEnabled: js,
            })
        const page = large ? await largeTextPage(context) : await context.newPage()
        await signInOverHttp(page.context(), email, demoPassword, 'en')
        return page
      }
      const [hostEmail, memberEmail] = large
        ? ['member31@demo.test', 'member32@demo.test']
        : ['member33@demo.test', 'member34@demo.test']
      const host = await open(hostEmail, false)
      // Starts within 12 hours: cancelling a seat asks first.
      const id = await createActivity(host, {
        title: 'Tea and a chat',
        fee: '5.00',
        start: localStart(3 * 60 * 60 * 1000),
      })
      const tools = host.getByRole('region', { name: 'Manage your activity' })
      // The page may still be arriving (streamed) when its heading shows: wait for its last part.
      await expect(tools.getByRole('button', { name: 'Send invitations' })).toBeVisible()
      await expectTall(tools.locator('a, button'), 'host tools')

      await host.goto(`/activities/${id}?confirm=cancel-activity`)
      await expectApart(
        host.getByRole('button', { name: 'Yes, cancel the activity' }),
        host.getByRole('link', { name: 'No, keep it' }),
        'cancel the activity',
      )

      // With JavaScript the late cancel is confirmed in place; without, on a page of its own.
      // The fee asks for a saved card and the member's agreement, a box next to the button (decision 075).
      await savedCard(memberEmail)
      const attendee = await open(memberEmail, true)
      await attendee.goto(`/activities/${id}`)
      await attendee.locator('#fee-consent').check()
      await attendee.getByRole('button', { name: 'Save my seat' }).click()
      await expect(flash(attendee)).toHaveText('Your seat is saved.')
      await attendee.getByRole('button', { name: 'Cancel my seat' }).click()
      await expectApart(
        attendee.getByRole('button', { name: 'Yes, cancel my seat' }),
        attendee.getByRole('button', { name: 'No, keep my seat' }),
        'cancel a seat, in place',
      )
      await attendee.goto(`/activities/${id}?confirm=cancel`)
      await expectApart(
        attendee.getByRole('button', { name: 'Yes, cancel my seat' }),
        attendee.getByRole('link', { name: 'No, keep my seat' }),
        'cancel a seat, its own page',
      )
      await attendee.goto('/account?confirm=delete')
      await expectApart(
        attendee.getByRole('button', { name: 'Yes, delete my account' }),
        attendee.getByRole('link', { name: 'No, keep my account' }),
        'delete the account',
      )
      await host.context().close()
      await attendee.context().close()
    })
  }

  test('the whole activity card opens the activity; its link is named by the title alone', async ({
    browser,
  }) => {
    const context = await visitor(browser)
    const page = await largeTextPage(context)
    await page.goto('/activities?date=any-day&distance=50&q=Portland')
    const card = page.locator('.experience-card').first()
    const link = card.locator('h2 a')
    const title = (await link.textContent())!.trim()
    const href = (await link.getAttribute('href'))!
    // The card holds one interactive element, named by the title alone.
    await expect(card.locator('a, button, input, select, textarea, [tabindex]')).toHaveCount(1)
    await expect(card.getByRole('link')).toHaveAccessibleName(title)
    // A tap on the card's date line, far from the title, opens the activity.
    await card.locator('.experience-card__when').scrollIntoViewIfNeeded()
    const when = (await card.locator('.experience-card__when').boundingBox())!
    await page.mouse.click(when.x + 5, when.y + when.height / 2)
    await expect(page).toHaveURL(new RegExp(`${href}$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
    await context.close()
  })
})

test.describe('toasts', () => {
  test('at 200% the message stays at the top of the page, announced once, never over the content', async ({
    browser,
  }) => {
    const context = await visitor(browser)
    const page = await largeTextPage(context)
    await signIn(page, 'member@demo.test', demoPassword)
    const message = 'You are signed in.'
    await expect(flash(page)).toHaveText(message)
    const main = await page.locator('main').boundingBox()
    const flashBox = (await flash(page).boundingBox())!
    expect(flashBox.y - main!.y, 'the message is near the top of the main content').toBeLessThan(
      120,
    )
    // One live region says it: the status at the top of the page is not a second one.
    const live = page
      .locator('[role="status"], [role="alert"], [aria-live]:not([aria-live="off"])')
      .filter({ hasText: message })
    await expect(live).toHaveCount(1)
    // Whatever floats over the page is out of the content's way (at this size: nothing).
    const floating = await page
      .locator('.toast')
      .evaluateAll(
        (toasts) =>
          toasts.filter(
            (toast) =>
              toast.checkVisibility() &&
              toast.getBoundingClientRect().height > 2 &&
              getComputedStyle(toast).position === 'fixed',
          ).length,
      )
    expect(floating, 'toasts floating over the page').toBe(0)
    await context.close()
  })

  test('on a desktop a toast floats for 10 s, one with an action until dismissed; both stay on the page', async ({
    browser,
  }) => {
    const context = await newVisitor(browser, { viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.clock.install()
    // Signing in says so, without an action: the toast floats for 10 s, the page keeps the message.
    await signIn(page, 'member@demo.test', demoPassword)
    const toast = page.locator('.toast-region .toast')
    await expect(toast).toContainText('You are signed in.')
    await page.clock.fastForward(9_000)
    await expect(toast).toBeVisible()
    await page.clock.fastForward(2_000)
    await expect(toast).toHaveCount(0)
    await expect(flash(page)).toHaveText('You are signed in.')

    // A cancelled sign-in offers to try again: that toast waits for the member.
    await page.goto('/login-success?error=access_denied')
    await expect(toast).toContainText('Sign-in was canceled')
    await page.clock.fastForward(60_000)
    await expect(toast.getByRole('link', { name: 'Try again' })).toBeVisible()
    await toast.getByRole('button', { name: 'Dismiss' }).click()
    await expect(toast).toHaveCount(0)
    await expect(flash(page).getByRole('link', { name: 'Try again' })).toBeVisible()
    await context.close()
  })
})

/**
 * Writes docs/screenshots/: the first screen a member sees and the whole page. A full-page capture
 * resizes the window, and Chromium then forgets the font-size setting: the window is made as tall
 * as the page and the setting given again, until the page's height settles.
 */
test('screenshots at 390 px with the text at 200% (SCREENSHOTS=1)', async ({ browser }) => {
  test.skip(!process.env.SCREENSHOTS, 'writes docs/screenshots/ only when asked')
  const { context, page } = await signedInAs(browser, 'member@demo.test')
  mkdirSync('docs/screenshots', { recursive: true })
  await page.goto('/attending?type=upcoming')
  // An activity the member is going to, at a street address (the longest lines of the page).
  const going = page
    .locator('.experience-card')
    .filter({ hasText: 'You are going.' })
    .filter({ hasNotText: 'Online' })
  const activity = await going.first().locator('h2 a').getAttribute('href')
  const shots: [string, string][] = [
    [activity!, 'activity'],
    ['/activities?date=any-day&distance=50&q=Portland', 'explore'],
    ['/attending?type=upcoming', 'my-activities'],
    ['/account', 'account'],
    ['/account/notification-settings', 'notification-settings'],
  ]
  for (const [path, name] of shots) await screenshots(page, path, name)
  await context.close()
})

/** The first screen and the whole page of `path` at 390 px with the text at 200%, as `large-text-390-${name}-{screen,page}.png`. */
async function screenshots(page: Page, path: string, name: string) {
  await page.setViewportSize(phone)
  await setLargeText(page)
  await page.goto(path)
  await page.waitForLoadState('load')
  await page.screenshot({ path: `docs/screenshots/large-text-390-${name}-screen.png` })
  for (let height = 0, tries = 0; tries < 6; tries++) {
    const now = await page.evaluate(() => document.documentElement.scrollHeight)
    if (now === height) break
    height = now
    await page.setViewportSize({ width: phone.width, height })
    await setLargeText(page)
  }
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('38px')
  await page.screenshot({ path: `docs/screenshots/large-text-390-${name}-page.png` })
}

/**
 * Issue 29 §4's screenshots, at 390 px with the text at 200%: the bottom bar and the header with
 * unread badges at their widest ("9+"), and the French activity page (the notification settings
 * are in the test above).
 * `SCREENSHOTS=1 node scripts/e2e.ts tests/e2e/large-text.spec.ts -g "issue 29 screenshots"`.
 */
test('issue 29 screenshots at 390 px with the text at 200% (SCREENSHOTS=1)', async ({ browser }) => {
  test.skip(!process.env.SCREENSHOTS, 'writes docs/screenshots/ only when asked')
  await unreadConversation('member287@demo.test', 'member286@demo.test', 12, [...messages.en])
  const context = await visitor(browser)
  const page = await largeTextPage(context)
  await signIn(page, 'member287@demo.test', demoPassword)
  if ((await page.locator('html').getAttribute('lang')) !== 'en') await switchLanguage(page, 'en')
  mkdirSync('docs/screenshots', { recursive: true })
  // The bar and the header with their badges: the first screen of My activities, and the bar alone.
  await screenshots(page, '/attending', 'bottom-bar')
  await page.setViewportSize(phone)
  await setLargeText(page)
  await page.goto('/attending')
  await page.locator('.bottom-nav').screenshot({ path: 'docs/screenshots/large-text-390-bottom-bar.png' })
  // An activity at a street address in Portland, in French.
  await switchLanguage(page, 'fr')
  await page.goto('/activities?date=any-day&distance=50&q=Portland')
  const inPerson = page.locator('.experience-card').filter({ hasNotText: 'En ligne' })
  const activity = await inPerson.first().locator('h2 a').getAttribute('href')
  await screenshots(page, activity!, 'activity-fr')
  await switchLanguage(page, 'en')
  await context.close()
})

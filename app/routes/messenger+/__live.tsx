import { useFetcher, useRevalidator } from '@remix-run/react'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { useChatEvents } from '#app/utils/chat-live.tsx'
import { applyMessages, mergeMessages, settlePending, shorten, timeline, type PendingMessage, type TimelineItem } from '#app/utils/chat-timeline.ts'
import type { Channel, ChannelWithMessages, ChatMessageEvent, Message } from '#contract/chat.ts'

/**
 * `/messenger` with JavaScript (issue 14 §2, decision 035): the root's chat stream applied to
 * the page. New messages join the open channel and the channel list; the open channel is marked
 * read while the page is visible; messages the member sends show at once ("Sending…") and
 * become the real one, or go back into the field; a polite live region announces what arrives.
 * Without JavaScript none of this runs and the page is the plain one of decision 033.
 */

/** useLayoutEffect warns on the server, where there is nothing to measure. */
const useClientLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect

/** Events kept for the channel list: they are re-applied (idempotently) to every fresher loader answer. */
const maxEvents = 200
/** More arrivals than this at once are announced as a count, not one by one. */
const maxAnnouncedOneByOne = 3

export const formAction = (id: string) => `/messenger?index&channel=${encodeURIComponent(id)}`

export interface LiveChannel {
  /** The open channel's messages as drawn, with the member's own still being sent. */
  items: TimelineItem[]
  /** A message is being sent: shown at once, marked "Sending…". */
  addPending: (body: string) => string
  /** The server accepted it as `id`. */
  confirmPending: (key: string, id: string) => void
  /** It was not sent: it leaves the list. */
  dropPending: (key: string) => void
  /** Says `text` in the page's one polite live region. */
  announce: (text: string) => void
}

function usePageVisible() {
  const [visible, setVisible] = useState(true)
  useEffect(() => {
    const update = () => setVisible(document.visibilityState !== 'hidden')
    update()
    document.addEventListener('visibilitychange', update)
    return () => document.removeEventListener('visibilitychange', update)
  }, [])
  return visible
}

export function useMessengerLive(loaded: { userId: string; now: number; channels: Channel[]; open: ChannelWithMessages | null; before: string | null }) {
  const { t } = useTranslation('messenger')
  const { userId, open, before } = loaded
  const revalidator = useRevalidator()
  const visible = usePageVisible()
  const [events, setEvents] = useState<ChatMessageEvent[]>([])
  const [pending, setPending] = useState<PendingMessage[]>([])
  const [now, setNow] = useState(loaded.now)
  const [announcement, setAnnouncement] = useState<{ id: number; text: string } | null>(null)
  const queued = useRef<string[]>([])
  const readFetcher = useFetcher({ key: 'messenger-read' })
  const readChannelId = open && !before && visible ? open.id : null

  // Everything the open view has shown stays (a fresher loader answer may drop its oldest message).
  const viewKey = open ? `${open.id} ${before ?? ''}` : ''
  const [view, setView] = useState({ key: viewKey, base: open?.messages ?? null, shown: open?.messages ?? [] })
  let current = view
  if (view.key !== viewKey) current = { key: viewKey, base: open?.messages ?? null, shown: open?.messages ?? [] }
  else if (open && view.base !== open.messages) current = { key: viewKey, base: open.messages, shown: mergeMessages(view.shown, open.messages) }
  if (current !== view) setView(current)

  const messages = useMemo(() => {
    // Live messages join the newest page only: an older page is history ("Newest messages" leads back).
    if (!open || before) return current.shown
    return mergeMessages(
      current.shown,
      events.filter((event) => event.channel_id === open.id).map((event) => event.message),
    )
  }, [current.shown, events, open, before])
  const me = useMemo(() => ({ id: userId, slug: '', display_name: null, avatar: null }), [userId])
  // Messages being sent to another channel (the member moved on meanwhile) stay with it.
  const items = useMemo(() => timeline(messages, pending.filter((entry) => entry.channelId === open?.id), me), [messages, pending, me, open?.id])
  useEffect(() => {
    setPending((entries) => settlePending(entries, messages))
  }, [messages])

  const { channels, unknown } = useMemo(() => applyMessages(loaded.channels, events, { userId, readChannelId }), [loaded.channels, events, userId, readChannelId])
  useEffect(() => {
    setNow((previous) => Math.max(previous, loaded.now))
  }, [loaded.now])

  const announce = useCallback((text: string) => {
    queued.current.push(text)
    // One announcement for what arrives together (a replay after a reconnect, a burst).
    if (queued.current.length === 1) {
      setTimeout(() => {
        const texts = queued.current.splice(0)
        const said = texts.length > maxAnnouncedOneByOne ? t('live.announceMany', { count: texts.length }) : texts.join(' ')
        setAnnouncement((previous) => ({ id: (previous?.id ?? 0) + 1, text: said }))
      }, 0)
    }
  }, [t])

  const channelName = useCallback(
    (channelId: string) => {
      const channel = loaded.channels.find((known) => known.id === channelId)
      if (!channel) return null
      if (channel.experience) return channel.experience.title
      return null
    },
    [loaded.channels],
  )

  /** Marks the open channel read (only the member's own marker): once at a time, again if asked meanwhile. */
  const wantRead = useRef<string | null>(null)
  const markRead = useCallback(
    (channelId: string) => {
      wantRead.current = channelId
      if (readFetcher.state !== 'idle') return
      wantRead.current = null
      readFetcher.submit({ intent: 'read', channel: channelId, live: '1' }, { method: 'post', action: formAction(channelId) })
    },
    [readFetcher],
  )
  useEffect(() => {
    if (readFetcher.state === 'idle' && wantRead.current) markRead(wantRead.current)
  }, [readFetcher.state, markRead])
  // A channel opened by a client-side navigation, or unread while the tab was hidden: read now that it shows.
  const openUnread = channels.find((channel) => channel.id === open?.id)?.unread_count ?? 0
  useEffect(() => {
    if (readChannelId && (openUnread > 0 || (open?.unread_count ?? 0) > 0)) markRead(readChannelId)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per change of what is unread, not per render of markRead
  }, [readChannelId, openUnread, open?.unread_count])

  useChatEvents((live) => {
    if (live.type === 'ready') {
      // A fresh stream starts from now: what the page drew before may be behind (decision 032).
      if (live.fresh) revalidator.revalidate()
      return
    }
    if (live.type !== 'message') return
    const { event } = live
    setNow(Date.now())
    setEvents((previous) => (previous.some((known) => known.message_id === event.message_id) ? previous : [...previous, event].slice(-maxEvents)))
    const message = event.message
    if (message.sender?.id === userId) return
    if (event.channel_id === readChannelId) markRead(event.channel_id)
    announce(announcementOf(message, event.channel_id === open?.id ? null : channelName(event.channel_id)))
  })
  // A message in a conversation the list does not have yet (a new request): reload the list.
  useEffect(() => {
    if (unknown && revalidator.state === 'idle') revalidator.revalidate()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a new unknown channel shows up
  }, [unknown])

  function announcementOf(message: Message, channel: string | null) {
    const name = message.is_system ? t('common:brand') : (message.sender?.display_name ?? t('common:member.generic'))
    const text = shorten(message.body)
    return channel ? t('live.announceIn', { name, channel, text }) : t('live.announce', { name, text })
  }

  const addPending = useCallback(
    (body: string) => {
      const key = `pending-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
      const seen = new Set(messages.map((message) => message.id))
      if (open) setPending((entries) => [...entries, { key, channelId: open.id, body, createdAt: new Date().toISOString(), sentId: null, seen }])
      return key
    },
    [messages, open],
  )
  const confirmPending = useCallback((key: string, id: string) => {
    setPending((entries) => entries.map((entry) => (entry.key === key ? { ...entry, sentId: id } : entry)))
  }, [])
  const dropPending = useCallback((key: string) => {
    setPending((entries) => entries.filter((entry) => entry.key !== key))
  }, [])

  const channel: LiveChannel = useMemo(
    () => ({ items, addPending, confirmPending, dropPending, announce }),
    [items, addPending, confirmPending, dropPending, announce],
  )
  return { channels, now, channel, announcement }
}

/** The page's ONE polite live region: new messages (never those present at load, never the member's own) and sending failures. */
export function LiveAnnouncer({ announcement }: { announcement: { id: number; text: string } | null }) {
  return (
    <div className="visually-hidden" aria-live="polite" data-testid="live-announcer">
      {announcement ? <p key={announcement.id}>{announcement.text}</p> : null}
    </div>
  )
}

/** The bottom of the screen the reader sees: above the fixed bottom navigation when it shows. */
function visibleBottom() {
  const nav = document.querySelector<HTMLElement>('.bottom-nav')
  const covered = nav && getComputedStyle(nav).position === 'fixed' ? nav.getBoundingClientRect().height : 0
  return window.innerHeight - covered
}

/**
 * The reader's place when messages arrive: at the bottom (the newest message on screen), the
 * new one is brought into view; reading further up, nothing moves and "New messages" offers to
 * go down. Focus never moves by itself. The member's own new message is always brought into view.
 */
export function useKeepPlace(list: RefObject<HTMLOListElement | null>, items: TimelineItem[], userId: string) {
  const atBottom = useRef(true)
  const lastId = useRef<string | null>(items.at(-1)?.message.id ?? null)
  const [unseen, setUnseen] = useState<string[]>([])

  const measure = useCallback(() => {
    const last = list.current?.lastElementChild
    atBottom.current = !last || last.getBoundingClientRect().top <= visibleBottom()
    if (atBottom.current) setUnseen((ids) => (ids.length ? [] : ids))
  }, [list])

  useEffect(() => {
    measure()
    window.addEventListener('scroll', measure, { passive: true })
    window.addEventListener('resize', measure, { passive: true })
    return () => {
      window.removeEventListener('scroll', measure)
      window.removeEventListener('resize', measure)
    }
  }, [measure])

  useClientLayoutEffect(() => {
    const previous = lastId.current
    const newest = items.at(-1)
    lastId.current = newest?.message.id ?? null
    if (!newest || newest.message.id === previous) return
    const start = previous ? items.findIndex((item) => item.message.id === previous) + 1 : 0
    const arrived = items.slice(start)
    if (arrived.length === 0) return
    const own = arrived.every((item) => item.message.sender?.id === userId)
    const element = document.getElementById(`m-${newest.message.id}`)
    if (own || atBottom.current) {
      element?.scrollIntoView({ block: 'nearest' })
      atBottom.current = true
    } else {
      setUnseen((ids) => [...ids, ...arrived.filter((item) => item.message.sender?.id !== userId).map((item) => item.message.id)])
    }
  }, [items, userId])

  const showUnseen = useCallback(() => {
    const first = unseen[0] ? document.getElementById(`m-${unseen[0]}`) : null
    setUnseen([])
    if (!first) return
    first.scrollIntoView({ block: 'start' })
    // The member asked to go there: their focus follows, so a keyboard or screen reader continues from it.
    first.setAttribute('tabindex', '-1')
    first.focus({ preventScroll: true })
  }, [unseen])

  return { unseen: unseen.length, showUnseen }
}

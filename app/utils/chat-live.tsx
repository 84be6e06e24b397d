import { useRevalidator } from '@remix-run/react'
import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { ChatMessageEvent } from '#contract/chat.ts'

/**
 * The signed-in member's live chat (issue 14 §2, decision 035): ONE `EventSource` per tab, to
 * `/messenger/events`, opened at the root for every signed-in page while the tab is visible.
 * It keeps the Messages badge live everywhere; `/messenger` (and later the notifications of
 * issue 15) subscribe to its events instead of opening a stream of their own.
 *
 * A hidden tab lets its stream go after `hiddenGraceMs`, so many open tabs do not hold the
 * browser's 6 connections per host (HTTP/1.1) or the server's 10 streams per member; coming back
 * opens a fresh stream, whose `ready` tells the pages to reload their data (`fresh`). Within one
 * `EventSource` the browser reconnects by itself with `Last-Event-ID` (the ids are messages'
 * `seq`), which the server replays exactly: nothing lost, nothing twice.
 */
export type ChatLiveEvent =
  | { type: 'message'; event: ChatMessageEvent }
  /** The stream is (again) connected; `fresh`: it started from "now", not from this page's last id, so what the page shows may be behind. */
  | { type: 'ready'; fresh: boolean }
  /** Too much was missed to replay: reload what the page shows. */
  | { type: 'resync' }

type Listener = (event: ChatLiveEvent) => void

interface ChatLive {
  /** The unread total the stream last reported, or null when the loader's is as fresh. */
  unread: number | null
  /** The unread notifications' total the stream last reported (decision 047), or null likewise. */
  notifications: number | null
  subscribe: (listener: Listener) => () => void
}

const ChatLiveContext = createContext<ChatLive>({ unread: null, notifications: null, subscribe: () => () => {} })

/** How long a hidden tab keeps its stream (switching tabs briefly does not reconnect). */
export const hiddenGraceMs = 30_000

export const chatEventsPath = '/messenger/events'

function parse(data: unknown) {
  try {
    return typeof data === 'string' ? (JSON.parse(data) as unknown) : null
  } catch {
    return null
  }
}

/**
 * `enabled`: a member is signed in. `revision`: the root loader's data; a newer answer of the
 * loader is at least as fresh as the last `unread` event, so the badge goes back to it.
 */
export function ChatLiveProvider({ enabled, revision, children }: { enabled: boolean; revision: unknown; children: ReactNode }) {
  const listeners = useRef(new Set<Listener>())
  const [unread, setUnread] = useState<{ total: number; revision: unknown } | null>(null)
  const [notifications, setNotifications] = useState<{ total: number; revision: unknown } | null>(null)
  const revisionRef = useRef(revision)
  revisionRef.current = revision
  const revalidator = useRevalidator()
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    let source: EventSource | null = null
    let hideTimer: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    /**
     * The contract's schemas, loaded once the page runs: evaluated in the root's bundle they would
     * build zod objects before zod-config.ts turns off zod's `new Function` probe (a CSP report on
     * every page), and the stream can wait a moment.
     */
    let schemas: typeof import('#contract/chat.ts') | null = null
    const emit = (event: ChatLiveEvent) => {
      for (const listener of [...listeners.current]) listener(event)
    }
    function open() {
      if (source || stopped || !schemas) return
      const { chatMessageEventSchema, chatUnreadEventSchema } = schemas
      const current = new EventSource(chatEventsPath)
      source = current
      // A new EventSource sends no Last-Event-ID: its first `ready` starts from now.
      let positioned = false
      current.addEventListener('ready', () => {
        emit({ type: 'ready', fresh: !positioned })
        positioned = true
      })
      current.addEventListener('message', (event) => {
        const parsed = chatMessageEventSchema.safeParse(parse(event.data))
        if (parsed.success) emit({ type: 'message', event: parsed.data })
      })
      current.addEventListener('unread', (event) => {
        const parsed = chatUnreadEventSchema.safeParse(parse(event.data))
        // A transition, as every badge update below: the stream's first answer can come while the
        // page inside the root's Suspense boundary is still hydrating, and an urgent update to the
        // shell then would throw that page away and draw it again (React's error #421).
        if (parsed.success) startTransition(() => setUnread({ total: parsed.data.total_unread, revision: revisionRef.current }))
      })
      // A new notification (issue 15 §3): the Notifications badge, live on every page.
      current.addEventListener('notifications', (event) => {
        const parsed = chatUnreadEventSchema.safeParse(parse(event.data))
        if (parsed.success) startTransition(() => setNotifications({ total: parsed.data.total_unread, revision: revisionRef.current }))
      })
      current.addEventListener('resync', () => {
        emit({ type: 'resync' })
        // The badge and every page's data: the stream could not say what changed.
        revalidate.current()
      })
      current.addEventListener('error', () => {
        // CLOSED: refused for good (signed out, suspended); CONNECTING: the browser retries itself.
        if (current.readyState === EventSource.CLOSED && source === current) source = null
      })
    }
    function close() {
      source?.close()
      source = null
    }
    function onVisibility() {
      clearTimeout(hideTimer)
      if (document.visibilityState === 'hidden') hideTimer = setTimeout(close, hiddenGraceMs)
      else open()
    }
    void import('#contract/chat.ts').then((module) => {
      schemas = module
      if (document.visibilityState !== 'hidden') open()
    })
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      stopped = true
      clearTimeout(hideTimer)
      document.removeEventListener('visibilitychange', onVisibility)
      close()
    }
  }, [enabled])

  const subscribe = useCallback((listener: Listener) => {
    listeners.current.add(listener)
    return () => {
      listeners.current.delete(listener)
    }
  }, [])
  const value = useMemo<ChatLive>(
    () => ({
      unread: enabled && unread && unread.revision === revision ? unread.total : null,
      notifications: enabled && notifications && notifications.revision === revision ? notifications.total : null,
      subscribe,
    }),
    [enabled, unread, notifications, revision, subscribe],
  )
  return <ChatLiveContext.Provider value={value}>{children}</ChatLiveContext.Provider>
}

export function useChatLive() {
  return useContext(ChatLiveContext)
}

/** Calls `listener` for every live chat event while the component is mounted (the latest `listener`). */
export function useChatEvents(listener: Listener) {
  const { subscribe } = useChatLive()
  const latest = useRef(listener)
  latest.current = listener
  useEffect(() => subscribe((event) => latest.current(event)), [subscribe])
}

/** The messenger's client action's answer when the browser could not reach the server (decision 035). */
export interface NotSent {
  notSent: true
}

export function isNotSent(value: unknown): value is NotSent {
  return typeof value === 'object' && value !== null && (value as Partial<NotSent>).notSent === true
}

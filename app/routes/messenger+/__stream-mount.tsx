import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react'
import type { StreamChatConfig } from './__stream-chat.server.ts'

/**
 * Stream's React client, loaded on demand (decision 036): a separate chunk fetched only in the
 * browser, after hydration, when the loader says Stream is the chat service. The built-in build's
 * `/messenger` ships none of it; without JavaScript, or until the chunk and Stream answer, the
 * server-rendered page (`children`) is what the member uses.
 */
const StreamMessenger = lazy(() =>
  import('./__stream-chat.client.tsx').catch(() => ({
    // The chunk did not load (offline, a deploy meanwhile): the page as it is works.
    default: ({ fallback }: { fallback: ReactNode }) => <>{fallback}</>,
  })),
)

export function StreamMount({ stream, channelId, children }: { stream: StreamChatConfig | null; channelId: string | null; children: ReactNode }) {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  if (!stream || !hydrated) return <>{children}</>
  return (
    <Suspense fallback={children}>
      <StreamMessenger config={stream} channelId={channelId} fallback={children} />
    </Suspense>
  )
}

import { useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { sendSegmentPage, startSegment } from '#app/utils/segment.client.ts'

/**
 * Loads Segment's browser library when the root loader allows it (decision 081) and sends each
 * page reached within the app after the first (which the server sent). Renders nothing.
 */
export function SegmentPages({ writeKey, memberId }: { writeKey: string | null; memberId: string | null }) {
  const location = useLocation()
  const first = useRef(true)
  useEffect(() => {
    if (!writeKey) return
    if (first.current) {
      first.current = false
      void startSegment(writeKey, memberId)
      return
    }
    sendSegmentPage(writeKey, memberId, location.pathname, location.search)
  }, [writeKey, memberId, location.pathname, location.search])
  return null
}

import { useEffect, useRef } from 'react'
import { useRevalidator } from '@remix-run/react'

/**
 * Spec §4, §8: when an optimistic change fails, the page's data is read again so that it shows
 * the true state. `failedAnswer` is the fetcher's answer to a failed change (undefined otherwise);
 * each new one refetches once. A 4xx/5xx answer does not reload the page's data by itself (single
 * fetch); one that never arrived does, and is then read once more. Answers whether the page's
 * data is being read again now.
 */
export function useRefetchOnFailure(failedAnswer: unknown) {
  const revalidator = useRevalidator()
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate
  useEffect(() => {
    if (failedAnswer) revalidate.current()
  }, [failedAnswer])
  return revalidator.state !== 'idle'
}

/**
 * `work`'s result, or undefined once `ms` have passed without one (or when it fails). The work
 * itself is not stopped: what it holds must have its own limit (a statement timeout, say).
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))
  try {
    return await Promise.race([work.catch(() => undefined), deadline])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The value axis of a chart (decision 082): from 0 to a round top, with a line at the middle.
 * The top is twice a "nice" step (1, 2, 2.5 or 5 times a power of ten) at least half the
 * highest value, so the three labels read 0, 5, 10 or 0, 50, 100 — never 0, 3.5, 7.
 */
export function niceTop(highest: number, options: { integer?: boolean } = {}): number {
  if (!Number.isFinite(highest) || highest <= 0) return options.integer ? 2 : 1
  const half = highest / 2
  const power = 10 ** Math.floor(Math.log10(half))
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= half * (1 - 1e-9))!
  // Counts have whole-number lines: a step under 1 (or 2.5 at 10^0) is rounded up.
  const whole = options.integer ? Math.max(1, step === 2.5 ? 3 : Math.ceil(step)) : step
  return whole * 2
}

/** The axis lines: 0, the middle and the top. */
export function ticks(top: number): [number, number, number] {
  return [0, top / 2, top]
}

/** A value's height in percent of the plot (0 to 100; a value over the top is cut at the top). */
export function heightOf(value: number, top: number): number {
  if (!(top > 0) || !Number.isFinite(value) || value <= 0) return 0
  return Math.min(100, (value / top) * 100)
}

import { useTranslation } from 'react-i18next'
import { heightOf, niceTop, ticks } from './scale.ts'

/**
 * Charts drawn on the server as SVG (decision 082): no chart library, nothing that needs
 * JavaScript, nothing a member cannot read another way.
 *
 * - A `<figure>` with its `<figcaption>`; the SVG is `role="img"`, named by the caption and by a
 *   sentence under it that says the highest value, and the same numbers are a real `<table>`
 *   (with the caption) in a `<details>` anyone can open: a screen reader, a magnifier, a printout.
 * - Large text and zoom: the SVG only draws the marks and stretches to the width; every word and
 *   number around it is HTML in rem, so it follows the member's text size. Under the axis, only
 *   the first and last weeks are named (all of them are in the table).
 * - Forced colours (Windows high contrast): the marks take the system's colours (app.css).
 * - Two series are told apart by a pattern as well as a colour.
 * - `null` is a value not shown: a gap in a line; in bars, with `hiddenBelow`, a dashed outline up
 *   to that value ("fewer than 5"), said in the legend and in the table.
 */
export interface ChartSeries {
  label: string
  values: ReadonlyArray<number | null>
}

interface ChartProps {
  id: string
  title: string
  /** What is counted, in a sentence under the title. */
  description?: string
  /** Each value's name in the table and the summary ("Week of 12 May"). */
  categories: readonly string[]
  /** The table's first column header ("Week"). */
  categoryHeader: string
  /** Short names of the first and last category, under the axis. */
  axisLabels?: readonly [string, string]
  series: readonly ChartSeries[]
  kind?: 'bar' | 'line'
  /** The axis top; by default a round number above the highest value. */
  top?: number
  /** Whole numbers (counts): round axis lines. */
  integer?: boolean
  /** How a value is written (in the axis, the table and the summary); by default as a number in the page's language. */
  format?: (value: number) => string
  /** What the table says for a value not shown. */
  hiddenText?: string
  /** Bars: a value not shown is drawn as a dashed outline up to this value. */
  hiddenBelow?: number
}

const SLOT = 10

export function Chart({ id, title, description, categories, categoryHeader, axisLabels, series, kind = 'bar', top, integer = false, format, hiddenText, hiddenBelow }: ChartProps) {
  const { t, i18n } = useTranslation('dashboards')
  const write = format ?? ((value: number) => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value))
  const values = series.flatMap((entry) => entry.values.filter((value): value is number => value !== null && Number.isFinite(value)))
  const anyHidden = series.some((entry) => entry.values.some((value) => value === null))
  const highest = Math.max(0, ...values, anyHidden && hiddenBelow ? hiddenBelow : 0)
  const axisTop = top ?? niceTop(highest, { integer })
  const drawsHidden = kind === 'bar' && anyHidden && hiddenBelow !== undefined
  const empty = !values.some((value) => value > 0) && !drawsHidden
  const captionId = `${id}-caption`
  const summaryId = `${id}-summary`
  const width = Math.max(1, categories.length) * SLOT

  const summary = empty
    ? t('chart.empty')
    : series
        .map((entry) => {
          let best = -1
          entry.values.forEach((value, index) => {
            if (value !== null && (best < 0 || value > (entry.values[best] ?? 0))) best = index
          })
          if (best >= 0 && entry.values[best]! > 0) return t('chart.highest', { series: entry.label, value: write(entry.values[best]!), category: categories[best] })
          return drawsHidden ? t('chart.allHidden', { series: entry.label, below: hiddenBelow }) : t('chart.nothingShown', { series: entry.label })
        })
        .join(' ')

  return (
    <figure className="chart" id={id}>
      <figcaption id={captionId} className="chart__caption">
        {title}
      </figcaption>
      {description ? <p className="chart__description">{description}</p> : null}
      {series.length > 1 || drawsHidden ? (
        <ul className="chart__legend">
          {series.length > 1
            ? series.map((entry, index) => (
                <li key={entry.label}>
                  <svg className="chart__swatch" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
                    {index === 1 ? <Hatch id={`${id}-legend-hatch`} /> : null}
                    <rect width="10" height="10" className={`chart__bar chart__bar--${index}`} fill={index === 1 ? `url(#${id}-legend-hatch)` : undefined} />
                  </svg>
                  {entry.label}
                </li>
              ))
            : null}
          {drawsHidden ? (
            <li>
              <svg className="chart__swatch" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
                <rect x="1" y="1" width="8" height="8" className="chart__bar--hidden" />
              </svg>
              {t('chart.hiddenLegend', { below: hiddenBelow })}
            </li>
          ) : null}
        </ul>
      ) : null}
      {empty ? null : (
        <div className="chart__frame">
          <div className="chart__y" aria-hidden="true">
            {ticks(axisTop)
              .slice()
              .reverse()
              .map((tick) => (
                <span key={tick}>{write(tick)}</span>
              ))}
          </div>
          <svg className="chart__plot" role="img" aria-labelledby={`${captionId} ${summaryId}`} viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" focusable="false">
            {series.length > 1 && kind === 'bar' ? <Hatch id={`${id}-hatch`} /> : null}
            {ticks(axisTop).map((tick) => (
              <line key={tick} className="chart__grid" x1="0" x2={width} y1={100 - heightOf(tick, axisTop)} y2={100 - heightOf(tick, axisTop)} vectorEffect="non-scaling-stroke" />
            ))}
            {kind === 'bar' ? <Bars id={id} series={series} top={axisTop} hiddenBelow={hiddenBelow} /> : <Lines series={series} top={axisTop} />}
          </svg>
          {axisLabels ? (
            <div className="chart__x" aria-hidden="true">
              <span>{axisLabels[0]}</span>
              <span>{axisLabels[1]}</span>
            </div>
          ) : null}
        </div>
      )}
      <p id={summaryId} className="chart__summary">
        {summary}
      </p>
      <details className="chart__numbers">
        <summary>{t('chart.showNumbers')}</summary>
        <div className="chart__table">
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{categoryHeader}</th>
                {series.map((entry) => (
                  <th scope="col" key={entry.label}>
                    {entry.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {categories.map((category, index) => (
                <tr key={category}>
                  <th scope="row">{category}</th>
                  {series.map((entry) => {
                    const value = entry.values[index]
                    return <td key={entry.label}>{value === null || value === undefined ? (hiddenText ?? t('chart.notShown')) : write(value)}</td>
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}

/** Diagonal stripes: the second series, told apart without colour. */
function Hatch({ id }: { id: string }) {
  return (
    <defs>
      <pattern id={id} width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="4" height="4" className="chart__hatch-ground" />
        <line x1="0" y1="0" x2="0" y2="4" className="chart__hatch-line" strokeWidth="3" />
      </pattern>
    </defs>
  )
}

function Bars({ id, series, top, hiddenBelow }: { id: string; series: readonly ChartSeries[]; top: number; hiddenBelow: number | undefined }) {
  const count = series.length
  // Each category's slot: a margin, the bars side by side, a margin.
  const barWidth = (SLOT * 0.7) / count
  return (
    <>
      {series.map((entry, index) =>
        entry.values.map((value, slot) => {
          const x = slot * SLOT + SLOT * 0.15 + index * barWidth
          if (value === null) {
            if (!hiddenBelow) return null
            const height = heightOf(hiddenBelow, top)
            return <rect key={`${index}-${slot}`} className="chart__bar--hidden" x={x + barWidth * 0.1} y={100 - height} width={barWidth * 0.8} height={height} vectorEffect="non-scaling-stroke" />
          }
          const height = heightOf(value, top)
          if (height === 0) return null
          return <rect key={`${index}-${slot}`} className={`chart__bar chart__bar--${index}`} x={x} y={100 - height} width={barWidth} height={height} fill={index === 1 ? `url(#${id}-hatch)` : undefined} />
        }),
      )}
    </>
  )
}

/** A line through each series' values, broken where a value is not shown; a dot on each value. */
function Lines({ series, top }: { series: readonly ChartSeries[]; top: number }) {
  return (
    <>
      {series.map((entry, index) => {
        const points = entry.values.map((value, slot) => (value === null ? null : { x: slot * SLOT + SLOT / 2, y: 100 - heightOf(value, top) }))
        let path = ''
        points.forEach((point, slot) => {
          if (!point) return
          path += `${points[slot - 1] ? 'L' : 'M'}${point.x} ${point.y}`
        })
        return (
          <g key={entry.label} className={`chart__series chart__series--${index}`}>
            {path ? <path className="chart__line" d={path} vectorEffect="non-scaling-stroke" /> : null}
            {points.map((point, slot) => (point ? <path key={slot} className="chart__dot" d={`M${point.x} ${point.y}h0`} vectorEffect="non-scaling-stroke" /> : null))}
          </g>
        )
      })}
    </>
  )
}

/**
 * Horizontal bars for steps in order (how far onboarding gets): a list whose every line says its
 * step and its number in words, the bar beside it only drawn (hidden from screen readers, which
 * read the list), and the same numbers in a table.
 */
export function StepBars({ id, title, description, steps, categoryHeader, valueHeader }: { id: string; title: string; description?: string; steps: ReadonlyArray<{ label: string; value: number }>; categoryHeader: string; valueHeader: string }) {
  const { t, i18n } = useTranslation('dashboards')
  const numbers = new Intl.NumberFormat(i18n.language)
  const write = (value: number) => numbers.format(value)
  const first = steps[0]?.value ?? 0
  return (
    <figure className="chart" id={id}>
      <figcaption className="chart__caption">{title}</figcaption>
      {description ? <p className="chart__description">{description}</p> : null}
      {first === 0 ? (
        <p className="chart__summary">{t('chart.empty')}</p>
      ) : (
        <ol className="chart-steps">
          {steps.map((step) => (
            <li key={step.label}>
              <span className="chart-steps__label">
                {step.label}: <strong>{write(step.value)}</strong>
              </span>
              <svg className="chart-steps__bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                <rect className="chart__bar chart__bar--0" width={heightOf(step.value, first)} height="10" />
              </svg>
            </li>
          ))}
        </ol>
      )}
      <details className="chart__numbers">
        <summary>{t('chart.showNumbers')}</summary>
        <div className="chart__table">
          <table>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{categoryHeader}</th>
                <th scope="col">{valueHeader}</th>
              </tr>
            </thead>
            <tbody>
              {steps.map((step) => (
                <tr key={step.label}>
                  <th scope="row">{step.label}</th>
                  <td>{write(step.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}

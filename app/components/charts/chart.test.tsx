import { JSDOM } from 'jsdom'
import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { describe, expect, it } from 'vitest'
import { createI18nInstance } from '#app/utils/i18next.server.ts'
import { Chart, StepBars } from './chart.tsx'
import { heightOf, niceTop, ticks } from './scale.ts'

/**
 * The dashboards' charts (decision 082), as the server draws them: a figure named by its caption,
 * an SVG image named by the caption and a sentence, the same numbers in a table, round axis
 * lines, and nothing broken by empty weeks or numbers not shown.
 */
async function drawn(node: React.ReactNode, language: 'en' | 'fr' = 'en') {
  const i18n = await createI18nInstance(language)
  const html = renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>)
  const { document } = new JSDOM(`<!doctype html><body>${html}`).window
  return { html, document }
}

const weeks = ['week of 3 Mar', 'week of 10 Mar', 'week of 17 Mar', 'this week, so far']
const shared = { categories: weeks, axisLabels: ['3 Mar', '24 Mar'] as const, categoryHeader: 'Week' }

describe('the value axis', () => {
  it('ends on a round number above the highest value, with a round middle', () => {
    expect([7, 14, 3, 100, 0.4, 16.7].map((highest) => niceTop(highest))).toEqual([10, 20, 4, 100, 0.4, 20])
    expect(niceTop(5, { integer: true })).toBe(6)
    expect(niceTop(1, { integer: true })).toBe(2)
    expect(niceTop(0)).toBe(1)
    expect(niceTop(Number.NaN, { integer: true })).toBe(2)
    expect(ticks(10)).toEqual([0, 5, 10])
    expect([heightOf(5, 10), heightOf(12, 10), heightOf(-1, 10), heightOf(3, 0)]).toEqual([50, 100, 0, 0])
  })
})

describe('a bar chart', () => {
  it('is a figure whose SVG image is named by its caption and a sentence, with the same numbers in a table', async () => {
    const { document } = await drawn(<Chart id="sign-ups" title="Sign-ups by week" {...shared} integer series={[{ label: 'Signed up', values: [3, 14, 0, 6] }]} />)
    const figure = document.querySelector('figure#sign-ups')!
    expect(figure.querySelector('figcaption')!.textContent).toBe('Sign-ups by week')
    const svg = figure.querySelector('svg.chart__plot')!
    expect(svg.getAttribute('role')).toBe('img')
    const names = svg.getAttribute('aria-labelledby')!.split(' ').map((id) => document.getElementById(id)!.textContent)
    expect(names).toEqual(['Sign-ups by week', 'Signed up: highest 14, week of 10 Mar.'])
    // Scale: up to 20 (a round top above 14), lines at 0, 10 and 20; 14 is 70% of the height.
    expect([...figure.querySelectorAll('.chart__y span')].map((label) => label.textContent)).toEqual(['20', '10', '0'])
    const bars = [...svg.querySelectorAll('rect.chart__bar')].map((bar) => Number(bar.getAttribute('height')))
    expect(bars).toEqual([15, 70, 30])
    expect([...figure.querySelectorAll('.chart__x span')].map((label) => label.textContent)).toEqual(['3 Mar', '24 Mar'])
    // The table: its caption, a header per column, a row per week.
    const table = figure.querySelector('details table')!
    expect(table.querySelector('caption')!.textContent).toBe('Sign-ups by week')
    expect([...table.querySelectorAll('thead th')].map((cell) => [cell.textContent, cell.getAttribute('scope')])).toEqual([['Week', 'col'], ['Signed up', 'col']])
    expect([...table.querySelectorAll('tbody tr')].map((row) => [row.querySelector('th')!.textContent, row.querySelector('td')!.textContent])).toEqual([
      ['week of 3 Mar', '3'],
      ['week of 10 Mar', '14'],
      ['week of 17 Mar', '0'],
      ['this week, so far', '6'],
    ])
    expect(figure.querySelector('details summary')!.textContent).toBe('Show these numbers as a table')
  })

  it('tells two series apart by a pattern and a legend, not by colour alone', async () => {
    const { document } = await drawn(
      <Chart
        id="activities"
        title="Activities created and held"
        {...shared}
        integer
        series={[
          { label: 'Created', values: [1, 2, 3, 4] },
          { label: 'Took place', values: [0, 1, 2, 2] },
        ]}
      />,
    )
    expect([...document.querySelectorAll('.chart__legend li')].map((item) => item.textContent)).toEqual(['Created', 'Took place'])
    expect(document.querySelectorAll('rect.chart__bar--1[fill="url(#activities-hatch)"]')).toHaveLength(3)
    expect(document.querySelector('pattern#activities-hatch')).not.toBeNull()
    expect(document.querySelector('#activities-summary')!.textContent).toBe('Created: highest 4, this week, so far. Took place: highest 2, week of 17 Mar.')
  })

  it('draws a number not shown as a dashed outline up to 5, said in the legend and the table', async () => {
    const { document } = await drawn(<Chart id="no-shows" title="Did not come" {...shared} integer hiddenBelow={5} hiddenText="fewer than 5" series={[{ label: 'Did not come', values: [null, 0, 6, null] }]} />)
    expect(document.querySelectorAll('rect.chart__bar--hidden')).toHaveLength(2 + 1)
    expect(document.querySelector('.chart__legend')!.textContent).toBe('Dashed outline: fewer than 5, not shown exactly')
    expect([...document.querySelectorAll('tbody td')].map((cell) => cell.textContent)).toEqual(['fewer than 5', '0', '6', 'fewer than 5'])
    const only = await drawn(<Chart id="few" title="Did not come" {...shared} integer hiddenBelow={5} hiddenText="fewer than 5" series={[{ label: 'Did not come', values: [null, 0, 0, 0] }]} />)
    expect(only.document.querySelector('#few-summary')!.textContent).toBe('Did not come: fewer than 5 in each week.')
  })

  it('says there is nothing to show when every week is empty, and still has the table', async () => {
    const { document, html } = await drawn(<Chart id="empty" title="Seats filled from notify lists" {...shared} integer series={[{ label: 'Seats filled', values: [0, 0, 0, 0] }]} />)
    expect(document.querySelector('svg')).toBeNull()
    expect(document.querySelector('.chart__summary')!.textContent).toBe('Nothing to show for these weeks yet.')
    expect(document.querySelectorAll('tbody tr')).toHaveLength(4)
    expect(html).not.toMatch(/NaN|Infinity|undefined/)
  })
})

describe('a line chart', () => {
  it('breaks the line where a week has no number, and writes values as asked', async () => {
    const { document, html } = await drawn(
      <Chart id="rating" kind="line" top={5} title="Average rating" {...shared} hiddenText="fewer than 5" series={[{ label: 'Average rating', values: [4.5, null, 4, 5] }]} />,
      'fr',
    )
    expect(document.querySelector('path.chart__line')!.getAttribute('d')).toBe('M5 10M25 20L35 0')
    expect(document.querySelectorAll('path.chart__dot')).toHaveLength(3)
    expect([...document.querySelectorAll('.chart__y span')].map((label) => label.textContent)).toEqual(['5', '2,5', '0'])
    expect([...document.querySelectorAll('tbody td')].map((cell) => cell.textContent)).toEqual(['4,5', 'fewer than 5', '4', '5'])
    expect(document.querySelector('details summary')!.textContent).toBe('Afficher ces chiffres sous forme de tableau')
    expect(html).not.toMatch(/NaN/)
  })
})

describe('steps in order', () => {
  it('is a list that says each step and its number, the bars only drawn, and the same numbers in a table', async () => {
    const steps = [
      { label: 'Signed up', value: 40 },
      { label: 'Reached home city', value: 30 },
      { label: 'Finished', value: 10 },
    ]
    const { document } = await drawn(<StepBars id="onboarding" title="How far onboarding gets" steps={steps} categoryHeader="Page" valueHeader="Members" />)
    expect([...document.querySelectorAll('.chart-steps li')].map((item) => item.textContent)).toEqual(['Signed up: 40', 'Reached home city: 30', 'Finished: 10'])
    expect([...document.querySelectorAll('.chart-steps svg')].every((svg) => svg.getAttribute('aria-hidden') === 'true')).toBe(true)
    expect([...document.querySelectorAll('.chart-steps rect')].map((bar) => Number(bar.getAttribute('width')))).toEqual([100, 75, 25])
    expect(document.querySelectorAll('tbody tr')).toHaveLength(3)
    const empty = await drawn(<StepBars id="none" title="How far onboarding gets" steps={steps.map((step) => ({ ...step, value: 0 }))} categoryHeader="Page" valueHeader="Members" />)
    expect(empty.document.querySelector('.chart-steps')).toBeNull()
    expect(empty.document.querySelector('.chart__summary')!.textContent).toBe('Nothing to show for these weeks yet.')
  })
})

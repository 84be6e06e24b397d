import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { GuessedPlace } from './guessed-place.tsx'
import { FieldErrors } from './ui/field.tsx'
import { placesFromJson, type Place } from '#app/utils/place.ts'

/**
 * City search (spec §2, §5: US cities only). Without JavaScript it is a plain text field the
 * server searches; with JavaScript it becomes an ARIA 1.2 combobox with suggestions.
 */
export function CitySearch({
  defaultLabel,
  defaultPlaceId,
  inputId,
  label,
  hint,
  errors,
  searchOnLocate = false,
}: {
  defaultLabel: string
  defaultPlaceId: string | null
  /** The text field's id, for an error summary to link to. */
  inputId?: string
  label?: string
  hint?: string
  /** Translation keys of errors to show next to the field. */
  errors?: string[] | null
  /**
   * Explore (issue 29 §4): once "Use my current location" has found the city, the form is sent
   * at once, so the member sees what is near them without a second button. A city guessed from
   * the internet address says so after the search (`located`).
   */
  searchOnLocate?: boolean
}) {
  const { t } = useTranslation('activities')
  const generatedId = useId()
  const id = inputId ?? generatedId
  const inputFor = inputId ?? `${id}-input`
  const listId = `${id}-list`
  const [text, setText] = useState(defaultLabel)
  const [placeId, setPlaceId] = useState(defaultPlaceId ?? '')
  const [options, setOptions] = useState<Place[]>([])
  const [active, setActive] = useState(-1)
  const [open, setOpen] = useState(false)
  // Suggestions answer what the member types, never the city the page opened with: a saved
  // city coming back (onboarding's Back) must not open a list over the buttons below.
  const [typed, setTyped] = useState(false)
  const enhanced = useHydrated()
  const request = useRef<AbortController | null>(null)

  useEffect(() => {
    if (!enhanced || !typed || text.trim().length < 2 || placeId) {
      setOptions([])
      return
    }
    const timer = setTimeout(() => {
      request.current?.abort()
      const controller = new AbortController()
      request.current = controller
      fetch(`/api/v1/places?query=${encodeURIComponent(text.trim())}&limit=6`, { signal: controller.signal })
        .then((response) => (response.ok ? response.json() : { data: [] }))
        .then((json: unknown) => {
          const places = placesFromJson(json)
          // A city typed in full ("portland, or") is taken as it is: no list opens over the
          // buttons below for the member to dismiss first.
          const typedInFull = places.find((place) => place.label.toLowerCase() === text.trim().toLowerCase())
          if (typedInFull) return choose(typedInFull)
          setOptions(places)
          setOpen(true)
          setActive(-1)
        })
        .catch(() => {})
    }, 200)
    return () => clearTimeout(timer)
  }, [text, enhanced, typed, placeId])

  function choose(place: Place) {
    setText(place.label)
    setPlaceId(place.id)
    setOpen(false)
  }

  // "Use my current location" (JavaScript only): the browser's position, then the nearest city.
  // When the browser refuses or cannot tell, the city of the internet connection is offered;
  // a refusal is said first (spec §8: "Permission to access location was denied").
  const [locating, setLocating] = useState<'idle' | 'busy' | 'failed' | 'guessed'>('idle')
  const [denied, setDenied] = useState(false)
  // Set when a located city is to be searched; sent once the hidden field holds its id.
  const [searching, setSearching] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (!searching || !placeId) return
    setSearching(false)
    const form = input.current?.form
    // Safari before 16 has no requestSubmit: a plain submit loads the results page instead.
    if (typeof form?.requestSubmit === 'function') form.requestSubmit()
    else form?.submit()
  }, [searching, placeId])
  const canLocate = enhanced && typeof navigator !== 'undefined' && 'geolocation' in navigator
  async function nearest(url: string) {
    const response = await fetch(url)
    return placesFromJson(response.ok ? await response.json() : { data: [] })[0] ?? null
  }
  function locate() {
    setLocating('busy')
    setDenied(false)
    const settle = (place: Place | null, outcome: 'idle' | 'guessed') => {
      if (!place) return setLocating('failed')
      choose(place)
      setLocating(outcome)
      if (searchOnLocate) setSearching(true)
    }
    const fallBack = () =>
      nearest('/resources/places/near-me').then(
        (place) => settle(place, 'guessed'),
        () => setLocating('failed'),
      )
    navigator.geolocation.getCurrentPosition(
      ({ coords }) =>
        void nearest(`/api/v1/places/nearest?latitude=${coords.latitude}&longitude=${coords.longitude}`).then(
          (place) => (place ? settle(place, 'idle') : fallBack()),
          fallBack,
        ),
      (error) => {
        if (error.code === error.PERMISSION_DENIED) setDenied(true)
        void fallBack()
      },
      { timeout: 15_000, maximumAge: 10 * 60 * 1000 },
    )
  }

  return (
    <div className={errors?.length ? 'field field--error city-search' : 'field city-search'}>
      <label htmlFor={inputFor}>{label ?? t('filters.location')}</label>
      <span className="hint" id={`${id}-hint`}>
        {hint ?? t('filters.locationHint')}
      </span>
      <FieldErrors id={`${id}-error`} errors={errors} />
      <input
        ref={input}
        id={inputFor}
        type="text"
        name="q"
        value={text}
        autoComplete="off"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-hint ${id}-error` : `${id}-hint`}
        {...(enhanced
          ? {
              role: 'combobox',
              'aria-autocomplete': 'list' as const,
              'aria-expanded': open && options.length > 0,
              'aria-controls': listId,
              'aria-activedescendant': active >= 0 ? `${listId}-${active}` : undefined,
            }
          : {})}
        onChange={(event) => {
          setText(event.target.value)
          setTyped(true)
          setPlaceId('')
        }}
        onKeyDown={(event) => {
          if (!open || options.length === 0) return
          if (event.key === 'ArrowDown') {
            event.preventDefault()
            setActive((index) => (index + 1) % options.length)
          } else if (event.key === 'ArrowUp') {
            event.preventDefault()
            setActive((index) => (index <= 0 ? options.length - 1 : index - 1))
          } else if (event.key === 'Enter' && active >= 0) {
            event.preventDefault()
            choose(options[active]!)
          } else if (event.key === 'Escape') {
            setOpen(false)
          }
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      <input type="hidden" name="place" value={placeId} />
      {searchOnLocate && locating === 'guessed' ? <input type="hidden" name="located" value={denied ? 'denied' : 'ip'} /> : null}
      {canLocate ? (
        <button type="button" className="button button--link" onClick={locate} disabled={locating === 'busy'}>
          {t('filters.useLocation')}
        </button>
      ) : null}
      <div role="status">
        {/* Searched at once (Explore): the results page says the refusal and the guess. */}
        {denied && !(searchOnLocate && locating === 'guessed') ? <p className="hint">{t('filters.locationDenied')}</p> : null}
        {locating === 'busy' ? <p className="hint">{t('filters.locating')}</p> : null}
        {locating === 'failed' ? <p className="hint">{t('filters.locationFailed')}</p> : null}
        {locating === 'guessed' && !searchOnLocate ? <GuessedPlace label={text} /> : null}
      </div>
      {enhanced ? (
        <ul id={listId} role="listbox" className="city-search__options" hidden={!open || options.length === 0} aria-label={t('filters.suggestions')}>
          {options.map((place, index) => (
            <li
              key={place.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault()
                choose(place)
              }}
            >
              {place.label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

import { Link } from '@remix-run/react'
import { lazy, useId, useRef, useState } from 'react'
import { helpChatPath } from '#app/utils/help-chat.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'

/**
 * The header's Help control. Without JavaScript (and before hydration) a link to `/help/chat`;
 * with it, a button that shows the panel below the header (a disclosure: not modal, so nothing
 * traps the keyboard), loading the conversation only then. Escape or "Close help" closes it and
 * focus goes back to the button. With a vendor configured for the member, pressing Help loads
 * the vendor's widget instead (and only then); if it cannot load, the panel shows the built-in chat.
 * The header holds the state (`useHelpDisclosure`) and draws the panel after itself.
 */
export function useHelpDisclosure() {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const panelId = useId()
  const close = useRef(() => {
    setOpen(false)
    button.current?.focus()
  }).current
  return { open, toggle: () => setOpen((was) => !was), close, button, panelId }
}
export type HelpDisclosure = ReturnType<typeof useHelpDisclosure>

/** The panel's module (`help-chat.tsx`), fetched when Help is first pressed, or hovered or focused just before. */
const loadPanel = () => import('./help-chat.tsx')
export const LazyHelpPanel = lazy(loadPanel)

export function HelpControl({ label, help }: { label: string; help: HelpDisclosure }) {
  const hydrated = useHydrated()
  if (!hydrated) return <Link to={helpChatPath}>{label}</Link>
  return (
    <button
      type="button"
      ref={help.button}
      className="nav-button"
      aria-expanded={help.open}
      aria-controls={help.panelId}
      onClick={help.toggle}
      onPointerEnter={() => void loadPanel()}
      onFocus={() => void loadPanel()}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && help.open) help.close()
      }}
    >
      {label}
    </button>
  )
}


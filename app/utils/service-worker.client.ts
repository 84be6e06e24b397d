/**
 * Registers the service worker (/sw.js, decision 045) once the page has loaded, so it never
 * competes with the page's own first requests. Only in production builds, where assets are
 * hashed, or when a developer turns it on (`localStorage['circle55:sw'] = 'on'`): in development
 * Vite's modules change without new names.
 */
export function shouldRegister(options: { production: boolean; supported: boolean; enabled: string | null }) {
  return options.supported && (options.production || options.enabled === 'on')
}

export function registerServiceWorker() {
  let enabled: string | null = null
  try {
    enabled = window.localStorage.getItem('circle55:sw')
  } catch {
    // Storage refused (private mode): the default applies.
  }
  if (!shouldRegister({ production: import.meta.env.PROD, supported: 'serviceWorker' in navigator, enabled })) return
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // Without it the site works as before; nothing to tell the member.
    })
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}

/** The build's version (vite.config.ts `define`), the same in the browser and the server bundle. */
declare const __BUILD_VERSION__: string
/** A hash of every translation file (vite.config.ts `define`): part of the translations' address. */
declare const __LOCALES_VERSION__: string
/** The name of every translation namespace (vite.config.ts `define`), which the browser loads at once (decision 059). */
declare const __LOCALE_NAMESPACES__: string[]

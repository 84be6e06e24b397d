/** The build's version (vite.config.ts `define`), the same in the browser and the server bundle. */
declare const __BUILD_VERSION__: string

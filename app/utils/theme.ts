/** The brand colour (--color-brand in app.css): the browser's bar and the installed app's splash (decision 045). */
export const themeColor = '#0b5563'

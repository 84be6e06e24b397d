import { languages } from './i18n.ts'

/**
 * The service worker (issue 15 §5, decision 045). It keeps only what never goes stale: the hashed
 * build files under /assets (a new build has new names) and the offline page in each language.
 * Pages and member data always come from the network; only when the network fails does a page
 * visit show the offline page. Each build's worker has its own caches and deletes the others.
 */

/** What the worker does with a request: serve a hashed asset from its cache, visit a page, or stay out of the way. */
export function requestKind(request: { url: string; method: string; mode: string }, origin: string): 'asset' | 'page' | 'network' {
  if (request.method !== 'GET') return 'network'
  const url = new URL(request.url)
  if (url.origin !== origin) return 'network'
  if (request.mode === 'navigate') return 'page'
  if (url.pathname.startsWith('/assets/')) return 'asset'
  return 'network'
}

/** The offline page the browser's languages ask for first, else English. */
export function offlineLanguage(preferred: readonly string[], offered: readonly string[]) {
  for (const tag of preferred) {
    const language = tag.toLowerCase().split('-')[0] ?? ''
    if (offered.includes(language)) return language
  }
  return offered[0] ?? 'en'
}

export const offlinePath = (language: string) => `/offline/${language}`

export function serviceWorkerScript(version: string) {
  return `// Circle 55's service worker, build ${version} (app/utils/service-worker.server.ts).
'use strict';
const VERSION = ${JSON.stringify(version)};
const ASSETS = 'circle55-assets-' + VERSION;
const OFFLINE = 'circle55-offline-' + VERSION;
const LANGUAGES = ${JSON.stringify(languages)};
const OFFLINE_FILES = LANGUAGES.map((language) => ${JSON.stringify(offlinePath('LANG'))}.replace('LANG', language)).concat(['/refusal.css']);
const requestKind = ${requestKind.toString()};
const offlineLanguage = ${offlineLanguage.toString()};

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(OFFLINE).then((cache) => cache.addAll(OFFLINE_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('circle55-') && name !== ASSETS && name !== OFFLINE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const kind = requestKind(event.request, self.location.origin);
  if (kind === 'asset') event.respondWith(asset(event.request));
  else if (kind === 'page') event.respondWith(page(event.request));
  // Everything else (page data, the API, images, translations) goes to the network untouched.
});

/** A hashed build file never changes: from the cache, else fetched and kept. */
async function asset(request) {
  const cache = await caches.open(ASSETS);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** A page always comes from the network; the offline page only when the network fails. */
async function page(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const language = offlineLanguage(self.navigator.languages || [self.navigator.language || 'en'], LANGUAGES);
    const offline = await caches.match(OFFLINE_FILES[LANGUAGES.indexOf(language)], { ignoreVary: true });
    if (offline) return offline;
    throw error;
  }
}

// Web push (issue 15 §3, decision 048): shows the notification the payload describes
// ({ title, body, url, tag }) and opens its page on a click. api/notifications/push.ts sends these.
self.addEventListener('push', (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof payload.title === 'string' && payload.title ? payload.title : 'Circle 55';
  const options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: typeof payload.url === 'string' ? payload.url : '/' },
  };
  // A newer notification with the same tag (the same conversation, say) replaces the older one.
  if (typeof payload.tag === 'string' && payload.tag) Object.assign(options, { tag: payload.tag, renotify: true });
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  // Only pages of this site: a payload cannot send the member elsewhere.
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      // The tab already on that page, else any open tab of the app taken there, else a new one.
      const same = windows.find((client) => client.url === url);
      if (same) return same.focus();
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        const focused = await open.focus();
        return focused.navigate ? focused.navigate(url) : focused;
      }
      return self.clients.openWindow(url);
    }),
  );
});
`
}

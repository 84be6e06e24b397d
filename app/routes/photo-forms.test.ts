import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { RouteConfigEntry } from '@remix-run/route-config'
import { describe, expect, it } from 'vitest'
import { photoForms, photosAt } from '#contract/photo-forms.ts'
import routeConfig from '../routes.ts'

/**
 * Issue 29 §2: the profile photo forms were left out of the body limit's hand-kept list of photo
 * forms, so a member's 4 MB phone photo was refused with "The form is too large". The list is
 * now `contract/photo-forms.ts`, read by the host's body limit and by every photo form's upload
 * handler; this walks every route the app serves and proves that the pages whose form has a
 * file input (in the route module or any component it imports) are exactly the listed ones.
 */
const appDir = path.resolve(import.meta.dirname, '..')

/** Every route the app serves, with its whole URL path (`/activities/:id/edit`) and its module file. */
async function servedRoutes() {
  const routes: { path: string; file: string }[] = []
  const walk = (entries: RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      const joined = entry.path ? `${parent.replace(/\/$/, '')}/${entry.path}` : parent
      routes.push({ path: joined || '/', file: path.join(appDir, entry.file) })
      walk(entry.children ?? [], joined)
    }
  }
  walk(await routeConfig, '')
  return routes
}

/** The app's own modules `file` imports (relative and `#app/` imports), resolved to files. */
function importsOf(file: string, source: string) {
  const specifiers = [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1] ?? '')
  return specifiers
    .map((specifier) => {
      if (specifier.startsWith('#app/')) return path.join(appDir, specifier.slice('#app/'.length))
      if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier)
      return null
    })
    .filter((resolved): resolved is string => resolved !== null && existsSync(resolved))
}

/** A file input, or a form sent as multipart (which is only ever for a file). */
const fileField = /\btype=["']file["']|encType=\{?[^>]*?["']multipart\/form-data["']/

/** The route module and every component it imports, however deep, that draws a file field. */
function filesWithFileField(routeFile: string) {
  const seen = new Set<string>()
  const found: string[] = []
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    if (file.endsWith('.tsx') && fileField.test(source)) found.push(path.relative(appDir, file))
    // What runs only on the server draws nothing.
    for (const imported of importsOf(file, source)) if (!/\.server\.tsx?$/.test(imported)) visit(imported)
  }
  visit(routeFile)
  return found
}

describe('the photo forms (contract/photo-forms.ts)', () => {
  it('are exactly the pages whose form has a file input', async () => {
    const routes = await servedRoutes()
    expect(routes.length).toBeGreaterThan(40)
    const withFileField = routes.filter((route) => filesWithFileField(route.file).length > 0).map((route) => route.path)
    expect(withFileField.sort()).toEqual(photoForms.map((form) => form.path).sort())
  })

  it('are found through the components the pages use', async () => {
    const byPath = new Map((await servedRoutes()).map((route) => [route.path, route.file]))
    const fieldsOf = (routePath: string) => filesWithFileField(byPath.get(routePath) ?? '')
    expect(fieldsOf('/account/edit')).toContain('components/photo-field.tsx')
    expect(fieldsOf('/get-started/profile-photo')).toContain('components/photo-field.tsx')
    expect(fieldsOf('/activities/:id/edit')).toContain('components/activity-form.tsx')
    expect(fieldsOf('/get-started/verification')).toContain('routes/account+/__verification-form.tsx')
    // A page with forms but no file: its forms stay small.
    expect(fieldsOf('/account/notification-settings')).toEqual([])
  })

  it('say how many photos a page takes, with JavaScript (`.data`) and without', () => {
    expect(photosAt('/account/edit')).toBe(1)
    expect(photosAt('/account/edit.data')).toBe(1)
    expect(photosAt('/get-started/profile-photo')).toBe(1)
    expect(photosAt('/activities/3f2a/edit.data')).toBe(1)
    expect(photosAt('/account/verification')).toBe(2)
    expect(photosAt('/account/edit/')).toBe(0)
    expect(photosAt('/activities/3f2a/b/edit')).toBe(0)
    expect(photosAt('/account/editx')).toBe(0)
    expect(photosAt('/api/localize')).toBe(0)
  })
})

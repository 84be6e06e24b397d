/**
 * Import circles between files of api/, app/ and contract/ (decision 067). A circle is a file
 * that, following imports, comes back to itself: `import type` and `typeof import('…')` count
 * (a type-only circle still ties the modules together), and so do `export … from` and `import()`.
 *
 *   node scripts/import-circles.ts      # prints each circle as its file chain; exit 1 if any
 *
 * The same check runs inside `eslint .` as the rule `circle55/no-import-circle`
 * (eslint.config.js), which reports each import that closes a circle, with the chain.
 *
 * Imports are read with TypeScript's `preProcessFile` (a scanner, no type checking) and resolved
 * with `resolveModuleName` and the project's tsconfig, so the `#api/*`, `#app/*`, `#contract/*`
 * aliases of package.json "imports" resolve exactly as `tsc` resolves them. Only files of the
 * project count; packages under node_modules never close a circle of ours.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Rule } from 'eslint'
import ts from 'typescript'

/** The folders whose circles fail the check. */
export const checkedFolders = ['api', 'app', 'contract']
/** Folders read for imports as well: a circle may pass through them (tests/ helpers, scripts/). */
const readFolders = [...checkedFolders, 'tests', 'scripts', 'types']
const skipped = new Set(['node_modules', 'build', '.data', '.tools', '.cache', 'public'])

export interface ImportEdge {
  /** The imported file, project-relative with forward slashes. */
  to: string
  specifier: string
  /** Offsets of the specifier in the importing file's text. */
  pos: number
  end: number
}

/** File (project-relative) → the project files it imports. */
export type ImportGraph = Map<string, ImportEdge[]>

export type Resolve = (specifier: string, fromFile: string) => string | undefined

/** A resolver that follows the project's tsconfig, relative to `root`. */
export function projectResolver(root: string): Resolve {
  const configFile = path.join(root, 'tsconfig.json')
  const config = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file))
  const options = ts.parseJsonConfigFileContent(config.config ?? {}, ts.sys, root).options
  const cache = ts.createModuleResolutionCache(root, (name) => name, options)
  return (specifier, fromFile) => {
    // Bare names are packages; only relative paths and `#` aliases can reach our own files.
    if (!/^[.#/]/.test(specifier)) return undefined
    const resolved = ts.resolveModuleName(specifier, path.join(root, fromFile), options, ts.sys, cache)
      .resolvedModule
    if (!resolved || resolved.isExternalLibraryImport) return undefined
    const relative = path.relative(root, resolved.resolvedFileName)
    if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined
    if (relative.split(path.sep).includes('node_modules')) return undefined
    return relative.split(path.sep).join('/')
  }
}

/** The project files `text` (the file `file`) imports, in source order. */
export function importsOf(file: string, text: string, resolve: Resolve): ImportEdge[] {
  const edges: ImportEdge[] = []
  for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
    const to = resolve(imported.fileName, file)
    if (to) edges.push({ to, specifier: imported.fileName, pos: imported.pos, end: imported.end })
  }
  return edges
}

function sourceFiles(root: string): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (skipped.has(entry.name)) continue
      const relative = dir ? `${dir}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(relative)
      else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(relative)
    }
  }
  for (const folder of readFolders) {
    try {
      if (statSync(path.join(root, folder)).isDirectory()) walk(folder)
    } catch {
      // a folder this checkout does not have
    }
  }
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(entry.name)
  }
  return files.sort()
}

interface CachedFile {
  mtimeMs: number
  size: number
  edges: ImportEdge[]
}
const cache = new Map<string, { resolve: Resolve; files: Map<string, CachedFile>; checkedAt: number; graph: ImportGraph }>()

/**
 * The import graph of the project at `root`. Within one process the files are read once and
 * re-read only when they change (an editor's ESLint server lives long), looked at again at most
 * once a second; when a file appears or goes, everything is read again.
 */
export function projectGraph(root: string): ImportGraph {
  let state = cache.get(root)
  if (state && Date.now() - state.checkedAt < 1000) return state.graph
  const found = sourceFiles(root)
  // A file added or removed may change how any import resolves (and the resolver caches misses).
  const known = state?.files
  if (!state || !known || found.length !== known.size || found.some((file) => !known.has(file))) {
    state = { resolve: projectResolver(root), files: new Map(), checkedAt: 0, graph: new Map() }
  }
  const files = new Map<string, CachedFile>()
  for (const file of found) {
    const stat = statSync(path.join(root, file))
    const read = state.files.get(file)
    if (read && read.mtimeMs === stat.mtimeMs && read.size === stat.size) {
      files.set(file, read)
      continue
    }
    const text = readFileSync(path.join(root, file), 'utf8')
    files.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, edges: importsOf(file, text, state.resolve) })
  }
  const graph: ImportGraph = new Map()
  // A file may import one that does not exist (yet); only files that exist are nodes.
  for (const [file, { edges }] of files) graph.set(file, edges.filter((edge) => files.has(edge.to)))
  cache.set(root, { resolve: state.resolve, files, checkedAt: Date.now(), graph })
  return graph
}

/** The shortest import chain from `from` to `to` (both included), or undefined. */
export function shortestChain(graph: ImportGraph, from: string, to: string): string[] | undefined {
  const previous = new Map<string, string | null>([[from, null]])
  const queue = [from]
  for (let index = 0; index < queue.length; index++) {
    const file = queue[index]!
    if (file === to) {
      const chain: string[] = []
      for (let at: string | null | undefined = to; at != null; at = previous.get(at)) chain.unshift(at)
      return chain
    }
    for (const edge of graph.get(file) ?? []) {
      if (!previous.has(edge.to)) {
        previous.set(edge.to, file)
        queue.push(edge.to)
      }
    }
  }
  return undefined
}

/** Groups of files that all reach each other (Tarjan's strongly connected components), size ≥ 2 or self-importing. */
export function circleGroups(graph: ImportGraph): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const groups: string[][] = []
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    // Iterative depth-first search: the 57-file circle is deeper than is comfortable to recurse.
    const work: { file: string; next: number }[] = [{ file: start, next: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length) {
      const frame = work[work.length - 1]!
      const edges = graph.get(frame.file) ?? []
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!.to
        if (!index.has(to)) {
          index.set(to, counter)
          low.set(to, counter++)
          stack.push(to)
          onStack.add(to)
          work.push({ file: to, next: 0 })
        } else if (onStack.has(to)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(to)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!))
      if (low.get(frame.file) === index.get(frame.file)) {
        const group: string[] = []
        let file: string
        do {
          file = stack.pop()!
          onStack.delete(file)
          group.push(file)
        } while (file !== frame.file)
        const selfImport = (graph.get(frame.file) ?? []).some((edge) => edge.to === frame.file)
        if (group.length > 1 || selfImport) groups.push(group.sort())
      }
    }
  }
  return groups
}

export const inCheckedFolder = (file: string) => checkedFolders.some((folder) => file.startsWith(`${folder}/`))

export interface CircleGroup {
  files: string[]
  /** Distinct circles, each a chain that starts and ends at the same file: the shortest one through each import inside the group. */
  circles: string[][]
}

/** Every circle touching api/, app/ or contract/, grouped by the files that reach each other. */
export function findCircles(graph: ImportGraph): CircleGroup[] {
  const result: CircleGroup[] = []
  for (const files of circleGroups(graph)) {
    if (!files.some(inCheckedFolder)) continue
    const members = new Set(files)
    const seen = new Set<string>()
    const circles: string[][] = []
    for (const file of files) {
      for (const edge of graph.get(file) ?? []) {
        if (!members.has(edge.to)) continue
        const back = shortestChain(graph, edge.to, file)
        if (!back) continue
        const circle = [file, ...back]
        // The same circle found from another of its files: compare from its smallest file.
        const ring = circle.slice(0, -1)
        const start = ring.indexOf([...ring].sort()[0]!)
        const key = [...ring.slice(start), ...ring.slice(0, start)].join(' ')
        if (seen.has(key)) continue
        seen.add(key)
        circles.push(circle)
      }
    }
    circles.sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()))
    result.push({ files, circles })
  }
  return result.sort((a, b) => b.files.length - a.files.length)
}

export function formatCircles(groups: CircleGroup[]): string {
  const lines: string[] = []
  const count = groups.reduce((total, group) => total + group.circles.length, 0)
  lines.push(`${count} import circle${count === 1 ? '' : 's'} in ${groups.length} group${groups.length === 1 ? '' : 's'} of files that import each other:`)
  for (const [number, group] of groups.entries()) {
    lines.push('', `Group ${number + 1}: ${group.files.length} files, ${group.circles.length} circle${group.circles.length === 1 ? '' : 's'}`)
    for (const circle of group.circles) lines.push(`  ${circle.join(' → ')}`)
  }
  return lines.join('\n')
}

const roots = new Map<string, string | undefined>()
/** The nearest folder above `file` with a tsconfig.json: ESLint's working folder may be another. */
function projectRoot(file: string): string | undefined {
  const dir = path.dirname(path.resolve(file))
  if (!roots.has(dir)) {
    const parent = path.dirname(dir)
    roots.set(dir, existsSync(path.join(dir, 'tsconfig.json')) ? dir : parent === dir ? undefined : projectRoot(dir))
  }
  return roots.get(dir)
}

/**
 * ESLint rule: reports each import that closes a circle, with the circle as its file chain.
 * The linted file's imports come from the text ESLint holds; every other file's from disk.
 */
export const noImportCircle: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import circles between files of api/, app/ and contract/ (decision 067).' },
    schema: [],
    messages: { circle: 'Import circle: {{chain}}. Move what both sides need to where it belongs (decision 067).' },
  },
  create(context) {
    const root = projectRoot(context.filename)
    if (!root) return {}
    const file = path.relative(root, context.filename).split(path.sep).join('/')
    if (!inCheckedFolder(file)) return {}
    return {
      Program() {
        const disk = projectGraph(root)
        const state = cache.get(root)!
        const edges = importsOf(file, context.sourceCode.text, state.resolve).filter((edge) => disk.has(edge.to) || edge.to === file)
        const graph: ImportGraph = new Map(disk)
        graph.set(file, edges)
        const reported = new Set<string>()
        for (const edge of edges) {
          if (reported.has(edge.to)) continue
          reported.add(edge.to)
          const back = edge.to === file ? [file] : shortestChain(graph, edge.to, file)
          if (!back) continue
          context.report({
            loc: {
              start: context.sourceCode.getLocFromIndex(edge.pos),
              end: context.sourceCode.getLocFromIndex(edge.end),
            },
            messageId: 'circle',
            data: { chain: [file, ...back].join(' → ') },
          })
        }
      },
    }
  },
}

export const importCirclesPlugin = { rules: { 'no-import-circle': noImportCircle } }

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const started = performance.now()
  const graph = projectGraph(root)
  const groups = findCircles(graph)
  const took = ((performance.now() - started) / 1000).toFixed(2)
  const checked = [...graph.keys()].filter(inCheckedFolder).length
  if (groups.length === 0) {
    console.log(`No import circles among the ${checked} files of ${checkedFolders.join('/, ')}/ (${took} s).`)
  } else {
    console.error(formatCircles(groups))
    console.error(`\nChecked ${checked} files of ${checkedFolders.join('/, ')}/ in ${took} s. Move what both sides of a circle need to where it belongs (decision 067).`)
    process.exitCode = 1
  }
}

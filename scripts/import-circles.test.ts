import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Linter } from 'eslint'
import tseslint from 'typescript-eslint'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { findCircles, formatCircles, importCirclesPlugin, projectGraph } from './import-circles.ts'

/** A small project laid out like ours: package.json "imports" aliases, a NodeNext tsconfig. */
const files: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'fixture',
    type: 'module',
    imports: { '#api/*': './api/*', '#app/*': './app/*', '#contract/*': './contract/*', '#tests/*': './tests/*' },
  }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowImportingTsExtensions: true,
      noEmit: true,
      jsx: 'react-jsx',
    },
  }),
  // Closed by a type-only import through an alias, like `type ApiEnv` from api/app.ts.
  'api/app.ts': "import { thingRoutes } from './things/routes.ts'\nexport type ApiEnv = { name: string }\nexport const app = [thingRoutes]\n",
  'api/things/routes.ts': "import type { ApiEnv } from '#api/app.ts'\nimport { list } from './service.ts'\nexport const thingRoutes = (env: ApiEnv) => list(env.name)\n",
  'api/things/service.ts': "import { Kysely } from 'kysely'\nexport const list = (name: string) => [name, Kysely]\n",
  // Closed by `export * from` and by `typeof import(…)`.
  'contract/a.ts': "export * from './b.ts'\nexport const a = 1\n",
  'contract/b.ts': "export type A = typeof import('#contract/a.ts')\nexport const b = 2\n",
  // Through a dynamic import and a .tsx file.
  'app/root.tsx': "import { Header } from '#app/header.tsx'\nexport const Root = () => <Header />\n",
  'app/header.tsx': "export const Header = () => { void import('../app/root.tsx'); return null }\n",
  // Side by side: no circle.
  'app/utils/format.ts': "import { b } from '#contract/b.ts'\nexport const format = () => b\n",
  // A circle wholly outside api/, app/ and contract/ is not ours to fail on.
  'tests/one.ts': "import './two.ts'\n",
  'tests/two.ts': "import './one.ts'\n",
  // Comments and strings are not imports.
  'api/strings.ts': "// import '#api/app.ts'\nexport const text = \"import '#api/app.ts'\"\n",
  'api/uses-strings.ts': "import { text } from './strings.ts'\nexport const t = text\n",
}

let root: string

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'import-circles-'))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
})

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

describe('findCircles', () => {
  it('finds each circle as its file chain: type-only, alias, re-export, typeof import() and dynamic import', () => {
    const groups = findCircles(projectGraph(root))
    expect(groups.map((group) => group.circles)).toEqual([
      [['api/app.ts', 'api/things/routes.ts', 'api/app.ts']],
      [['app/header.tsx', 'app/root.tsx', 'app/header.tsx']],
      [['contract/a.ts', 'contract/b.ts', 'contract/a.ts']],
    ])
    expect(formatCircles(groups)).toContain('api/app.ts → api/things/routes.ts → api/app.ts')
  })

  it('sees files change, appear and go within one process (an editor’s ESLint server)', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      // An import of a file not written yet: nothing to follow.
      writeFileSync(path.join(root, 'api/later.ts'), "import './uses-later.ts'\n")
      vi.setSystemTime(Date.now() + 2000)
      expect(findCircles(projectGraph(root))).toHaveLength(3)
      writeFileSync(path.join(root, 'api/uses-later.ts'), "import './later.ts'\n")
      vi.setSystemTime(Date.now() + 2000)
      expect(findCircles(projectGraph(root)).map((group) => group.circles)).toContainEqual([['api/later.ts', 'api/uses-later.ts', 'api/later.ts']])
      rmSync(path.join(root, 'api/later.ts'))
      rmSync(path.join(root, 'api/uses-later.ts'))
      vi.setSystemTime(Date.now() + 2000)
      expect(findCircles(projectGraph(root))).toHaveLength(3)
    } finally {
      vi.useRealTimers()
    }
  })

  it('lists every distinct circle of a group, shortest first', () => {
    const graph = new Map([
      ['api/a.ts', [{ to: 'api/b.ts', specifier: '', pos: 0, end: 0 }]],
      ['api/b.ts', [{ to: 'api/a.ts', specifier: '', pos: 0, end: 0 }, { to: 'api/c.ts', specifier: '', pos: 0, end: 0 }]],
      ['api/c.ts', [{ to: 'api/a.ts', specifier: '', pos: 0, end: 0 }]],
    ])
    expect(findCircles(graph)).toEqual([
      {
        files: ['api/a.ts', 'api/b.ts', 'api/c.ts'],
        circles: [
          ['api/a.ts', 'api/b.ts', 'api/a.ts'],
          ['api/b.ts', 'api/c.ts', 'api/a.ts', 'api/b.ts'],
        ],
      },
    ])
  })
})

describe('the ESLint rule', () => {
  const lint = (file: string, text: string) =>
    new Linter({ cwd: root }).verify(
      text,
      [
        {
          files: ['**/*.{ts,tsx}'],
          languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
          plugins: { circle55: importCirclesPlugin },
          rules: { 'circle55/no-import-circle': 'error' },
        },
      ],
      path.join(root, file),
    )

  it('reports the import that closes a circle, at its specifier, with the chain', () => {
    const messages = lint('api/things/routes.ts', files['api/things/routes.ts']!)
    expect(messages).toEqual([
      expect.objectContaining({
        ruleId: 'circle55/no-import-circle',
        line: 1,
        column: 29,
        message: expect.stringContaining('api/things/routes.ts → api/app.ts → api/things/routes.ts') as string,
      }),
    ])
  })

  it('reads the linted file as ESLint holds it: removing the import clears the report', () => {
    expect(lint('api/things/routes.ts', "import { list } from './service.ts'\nexport const thingRoutes = () => list('x')\n")).toEqual([])
  })

  it('stays quiet on files without a circle and outside api/, app/ and contract/', () => {
    expect(lint('app/utils/format.ts', files['app/utils/format.ts']!)).toEqual([])
    expect(lint('tests/one.ts', files['tests/one.ts']!)).toEqual([])
  })
})

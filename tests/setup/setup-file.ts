import { afterAll, afterEach } from 'vitest'
import { checkConsoleErrors, installConsoleGuard } from './console-guard.ts'

// Runs before every test file.
installConsoleGuard()

afterEach(() => {
  checkConsoleErrors('during this test')
})

afterAll(() => {
  checkConsoleErrors('in a beforeAll/afterAll hook')
})

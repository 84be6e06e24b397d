import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { createRequestHandler } from '@remix-run/express'
import type { AppLoadContext, ServerBuild } from '@remix-run/node'
import express, { type Express, type RequestHandler } from 'express'
import pino from 'pino'
import type { Logger } from '#api/logger.ts'

/**
 * The Express host's pieces under test, as server.ts arranges them: middleware in front, served
 * on a free loopback port.
 */
export interface LoopbackServer {
  server: Server
  port: number
  url: string
  close(): Promise<void>
}

/** Serves `app` on a free loopback port; `close()` it in afterAll. */
export async function serveOnLoopback(app: Express): Promise<LoopbackServer> {
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening))
  })
  const { port } = server.address() as AddressInfo
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

export interface LogLine {
  level: number
  msg: string
}

/** A logger whose lines land in `lines`, to assert what was logged and at which level. */
export function capturingLogger(lines: LogLine[]): Logger {
  return pino(
    { level: 'info' },
    new Writable({
      write(line: Buffer, _encoding, done) {
        lines.push(JSON.parse(line.toString()) as LogLine)
        done()
      },
    }),
  )
}

/**
 * `guards`, then a Remix build through the real adapter; as in server.ts, an error that reaches
 * Express is answered 500 (and recorded in `failures`, where server.ts logs it at error level).
 * `getLoadContext` gives the routes their load context, as server.ts does.
 */
export function remixBehind(guards: RequestHandler[], build: ServerBuild, failures: unknown[], getLoadContext?: () => AppLoadContext): Express {
  const app = express()
  for (const guard of guards) app.use(guard)
  const handler = createRequestHandler({ build, mode: 'production', getLoadContext })
  app.all('*', (req, res, next) => void handler(req, res, next))
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    failures.push(error)
    res.status(500).send('Something went wrong.')
  })
  return app
}

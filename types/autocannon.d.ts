// autocannon ships no types; the benchmark client uses this much of it.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'
  interface Options {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
  }
  interface Result {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number; average: number }
    duration: number
    errors: number
    timeouts: number
    non2xx: number
  }
  interface Instance extends EventEmitter, PromiseLike<Result> {}
  export default function autocannon(options: Options): Instance
}

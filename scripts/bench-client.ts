import autocannon from 'autocannon'

/**
 * One load run (pinned to its own core by the benchmark scripts, scripts/bench-helpers.ts).
 * Records every latency and computes the percentiles itself, since autocannon does not report
 * p95. Prints one JSON line. Arguments: url, seconds, connections, and optionally extra request
 * headers as JSON (a cookie).
 */
const [url = '', durationArg = '20', connectionsArg = '10', headersArg = '{}'] = process.argv.slice(2)
const extraHeaders = JSON.parse(headersArg) as Record<string, string>
const latencies: number[] = []
let non2xx = 0
const instance = autocannon({ url, connections: Number(connectionsArg), duration: Number(durationArg), headers: { accept: 'text/html,application/json', ...extraHeaders } })
instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
  latencies.push(responseTime)
  if (statusCode < 200 || statusCode >= 300) non2xx++
})
const result = await instance
latencies.sort((a, b) => a - b)
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0
console.log(
  JSON.stringify({
    url,
    requests: latencies.length,
    rps: Math.round((latencies.length / result.duration) * 10) / 10,
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }),
)

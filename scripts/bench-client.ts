import autocannon from 'autocannon'

/**
 * One load run (run pinned to its own core by scripts/bench.ts). Records every latency and
 * computes the percentiles itself, since autocannon does not report p95. Prints one JSON line.
 */
const [url = '', durationArg = '20', connectionsArg = '10'] = process.argv.slice(2)
const latencies: number[] = []
let non2xx = 0
const instance = autocannon({ url, connections: Number(connectionsArg), duration: Number(durationArg), headers: { accept: 'text/html,application/json' } })
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

import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  bytes: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationMs: number;
  headers?: Record<string, string>;
  /** Requests sent before measuring, to warm caches and JIT. */
  warmup?: number;
  /**
   * Paced (open-loop) mode: the total requests per second offered, spread over the connections.
   * Without it the load is a closed loop: each connection sends again as soon as it is answered.
   */
  offeredRate?: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Closed-loop load: `connections` keep-alive sockets, each sending the next request when the last answers. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const once = () =>
    new Promise<{ ms: number; ok: boolean; bytes: number }>((resolve) => {
      const started = performance.now();
      const req = request(options.url, { agent, headers: options.headers }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ ms: performance.now() - started, ok: res.statusCode === 200, bytes }));
      });
      req.on('error', () => resolve({ ms: performance.now() - started, ok: false, bytes: 0 }));
      req.end();
    });

  for (let i = 0; i < (options.warmup ?? 200); i++) await once();
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const interval = options.offeredRate ? (1000 * options.connections) / options.offeredRate : 0;
  await Promise.all(
    Array.from({ length: options.connections }, async (_, index) => {
      let next = started + (interval * index) / options.connections;
      while (performance.now() < deadline) {
        if (interval) {
          const wait = next - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          next += interval;
        }
        const r = await once();
        latencies.push(r.ms);
        bytes += r.bytes;
        if (!r.ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    requests: latencies.length,
    errors,
    seconds: round(seconds),
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    bytes,
  };
}

// Run as a separate process so the load does not share the server's event loop:
//   node --import tsx bench/support/load-client.ts <url> <connections> <durationMs> [headersJson] [offeredRate]
if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, connections = '8', durationMs = '5000', headers = '{}', offeredRate] = process.argv.slice(2);
  const rate = offeredRate ? Number(offeredRate) : undefined;
  runLoad({
    url: url!,
    connections: Number(connections),
    durationMs: Number(durationMs),
    headers: JSON.parse(headers),
    offeredRate: rate,
  }).then((r) => process.stdout.write(JSON.stringify(r)));
}

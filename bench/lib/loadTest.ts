// One autocannon measurement (after a warm-up run whose numbers are discarded). Latency percentiles
// are computed from every response time autocannon reports: its own histogram keeps whole
// milliseconds only, too coarse for a hello-world answering in 1-3 ms.
import autocannon from 'autocannon';

export interface LoadTarget {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * The paths to request in turn instead of url's (url still gives the origin): one sequence over all
   * connections, from its start on every run, so two servers loaded one after the other get the same
   * requests in the same order.
   */
  paths?: readonly string[];
}

export interface LoadResult {
  name: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  non2xx: number;
  /** socket errors and timeouts */
  errors: number;
}

/** The q-quantile (0..1) of ascending values: the smallest value at or above that share. */
export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The middle value; for an even count the mean of the two middle ones. NaN for none. */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A setupRequest that gives each request the next path of `paths`, round and round. */
function inTurn(paths: readonly string[]): (request: autocannon.Request) => autocannon.Request {
  if (paths.length === 0) throw new Error('a load target with paths needs at least one');
  let next = 0;
  return (request) => ({ ...request, path: paths[next++ % paths.length]! });
}

export async function runLoad(target: LoadTarget, opts: { seconds: number; connections: number; warmupSeconds: number }): Promise<LoadResult> {
  const times: number[] = [];
  const instance = autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    ...(target.body !== undefined && { body: target.body }),
    ...(target.paths && { requests: [{ setupRequest: inTurn(target.paths) }] }),
    connections: opts.connections,
    pipelining: 1,
    duration: opts.seconds,
    // Without a warm-up when told 0: the caller warmed the server up itself (to read its CPU time in between).
    ...(opts.warmupSeconds > 0 && { warmup: { connections: opts.connections, duration: opts.warmupSeconds } }),
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  const result = await instance;
  const sorted = Float64Array.from(times).sort();
  return {
    name: target.name,
    reqPerSec: result.requests.average,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    responses: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

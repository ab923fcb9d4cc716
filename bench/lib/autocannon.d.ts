// The part of autocannon 9's programmatic API the benchmark uses (the package ships no types and
// @types/autocannon is not a dependency).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      /** seconds */
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      /** the requests each connection sends in turn; setupRequest rewrites one (its path, say) before it is sent */
      requests?: { setupRequest?: (request: Request) => Request }[];
      /** a run before the measured one, with these overrides; its results are discarded */
      warmup?: { connections?: number; duration?: number };
    }
    interface Request {
      method: string;
      path: string;
      headers: Record<string, string>;
    }
    interface Stats {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      p50: number;
      p99: number;
      total: number;
    }
    interface Result {
      duration: number;
      requests: Stats & { sent: number };
      latency: Stats;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    }
    interface Instance extends EventEmitter, PromiseLike<Result> {
      /** (client, statusCode, resBytes, responseTime in ms with sub-ms precision) */
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}

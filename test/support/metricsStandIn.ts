// A stand-in for the service's GET /metrics until the real one lands: the exposition prom-client
// would write (HELP and TYPE lines, histograms with `le` first, a blank line between families) with
// the names of the agreed list (docs/operations.md, "Operating it"), moving on every scrape by what the test's
// traffic says. Each exposition is one scrape: what happened since the previous one is added, then
// written out.

/** What happened on the instance between the previous scrape and this one, and the gauges now. */
export interface Traffic {
  /** requests answered in under 25 ms (0.02 s each) and between 250 and 500 ms (0.3 s each), by operation */
  requests: { operationId: string; method: string; route: string; status: number; fast: number; slow: number }[];
  stompConnections: number;
  stompSubscriptions: number;
  generationsRunning: number;
  generationsWaiting: number;
  generationsCompleted: number;
}

const durationBounds = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const firstDayBounds = [0.5, 1, 2.5, 5, 10, 30, 60];
const fastSeconds = 0.02;
const slowSeconds = 0.3;

type Labels = Record<string, string>;
const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Labels) => {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
};

function family(name: string, type: string, help: string, lines: string[]): string {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...lines].join('\n');
}

interface HistogramSeries {
  labels: Labels;
  /** observation counts per bound (not cumulative), then +Inf */
  counts: number[];
  sum: number;
}

function histogramLines(name: string, bounds: number[], series: HistogramSeries[]): string[] {
  return series.flatMap(({ labels, counts, sum }) => {
    let cumulative = 0;
    const buckets = [...bounds.map(String), '+Inf'].map((le, i) => {
      cumulative += counts[i] ?? 0;
      return `${name}_bucket${labelText({ le, ...labels })} ${cumulative}`;
    });
    return [...buckets, `${name}_sum${labelText(labels)} ${Number(sum.toFixed(6))}`, `${name}_count${labelText(labels)} ${cumulative}`];
  });
}

function observe(series: HistogramSeries, bounds: number[], seconds: number, times: number): void {
  if (times === 0) return;
  const index = bounds.findIndex((bound) => seconds <= bound);
  const at = index === -1 ? bounds.length : index;
  series.counts[at] = (series.counts[at] ?? 0) + times;
  series.sum += seconds * times;
}

export interface MetricsStandIn {
  /** expositions written so far */
  readonly scrapes: number;
  /** the next scrape: the traffic of `trafficOf(scrapes + 1)` added, then written out */
  expose(): string;
}

export function createMetricsStandIn(trafficOf: (scrape: number) => Traffic): MetricsStandIn {
  let scrapes = 0;
  const requests = new Map<string, HistogramSeries & { total: number; operationId: string; status: number }>();
  const firstDay: HistogramSeries = { labels: {}, counts: [], sum: 0 };
  let completed = 0;
  let cpuSeconds = 1.7;

  return {
    get scrapes() {
      return scrapes;
    },
    expose() {
      scrapes += 1;
      const traffic = trafficOf(scrapes);
      for (const r of traffic.requests) {
        const key = `${r.operationId} ${r.status}`;
        const labels = { http_request_method: r.method, http_route: r.route, http_response_status_code: String(r.status), operation_id: r.operationId };
        const series = requests.get(key) ?? { labels, counts: [], sum: 0, total: 0, operationId: r.operationId, status: r.status };
        requests.set(key, series);
        observe(series, durationBounds, fastSeconds, r.fast);
        observe(series, durationBounds, slowSeconds, r.slow);
        series.total += r.fast + r.slow;
      }
      observe(firstDay, firstDayBounds, 1.8, traffic.generationsCompleted);
      completed += traffic.generationsCompleted;
      cpuSeconds += 0.13;

      const requestSeries = [...requests.values()];
      return `${[
        family('process_cpu_user_seconds_total', 'counter', 'Total user CPU time spent in seconds.', [
          `process_cpu_user_seconds_total ${cpuSeconds.toFixed(2)}`,
        ]),
        family('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', [`process_resident_memory_bytes ${98_304_000 + scrapes * 65_536}`]),
        family('nodejs_eventloop_lag_p99_seconds', 'gauge', 'The 99th percentile of the recorded event loop delays.', [
          'nodejs_eventloop_lag_p99_seconds 0.012189695',
        ]),
        family(
          'http_server_request_duration_seconds',
          'histogram',
          'Duration of HTTP server requests.',
          histogramLines('http_server_request_duration_seconds', durationBounds, requestSeries),
        ),
        family(
          'http_server_requests_total',
          'counter',
          'HTTP requests answered, by operation and status.',
          requestSeries.map(
            (s) => `http_server_requests_total${labelText({ operation_id: s.operationId, http_response_status_code: String(s.status) })} ${s.total}`,
          ),
        ),
        family('trip_rate_limit_rejections_total', 'counter', 'Requests refused with 429 by the rate limit.', ['trip_rate_limit_rejections_total 0']),
        family('trip_stomp_connections', 'gauge', 'Open STOMP connections on this instance.', [`trip_stomp_connections ${traffic.stompConnections}`]),
        family('trip_stomp_subscriptions', 'gauge', 'Open STOMP subscriptions on this instance.', [`trip_stomp_subscriptions ${traffic.stompSubscriptions}`]),
        family('trip_generations_total', 'counter', 'Generation runs that ended, by outcome.', [`trip_generations_total{outcome="completed"} ${completed}`]),
        family('trip_generations_running', 'gauge', 'Generation runs this instance holds.', [`trip_generations_running ${traffic.generationsRunning}`]),
        family('trip_generations_waiting', 'gauge', 'GENERATING plans with no live lease (whole database).', [
          `trip_generations_waiting ${traffic.generationsWaiting}`,
        ]),
        family(
          'trip_generation_first_day_seconds',
          'histogram',
          'From the accepted start request to the first day saved.',
          histogramLines('trip_generation_first_day_seconds', firstDayBounds, [firstDay]),
        ),
        family('db_client_connection_count', 'gauge', 'Connections of the database pool, by state.', [
          'db_client_connection_count{state="idle"} 0',
          'db_client_connection_count{state="used"} 1',
        ]),
      ].join('\n\n')}\n`;
    },
  };
}

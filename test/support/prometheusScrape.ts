// GET /metrics of a test app, read with a real Prometheus text-format parser: what a Prometheus
// server would see. A series that is not there reads as 0 (a counter never moved is not printed).
import parsePrometheusTextFormat, { type PrometheusFamily, type PrometheusSample } from 'parse-prometheus-text-format';
import type { TestApp } from './testApp.js';

export interface Scrape {
  /** every metric family with its type and help text */
  families: PrometheusFamily[];
  /** the value of a counter or gauge series whose labels include `labels` (summed over the rest) */
  value(name: string, labels?: Record<string, string>): number;
  /** how many observations the histogram series whose labels include `labels` hold (their _count) */
  observations(name: string, labels?: Record<string, string>): number;
}

export async function scrape(t: Pick<TestApp, 'request'>, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await t.request('GET', '/metrics', { headers });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}: ${res.text}`);
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/plain; version=0.0.4')) throw new Error(`GET /metrics sent ${contentType}`);
  const families = parsePrometheusTextFormat(res.text);
  // The parser folds the series of a labelled histogram into one (its prom2json port keeps only
  // unlabelled ones), so series are read from a second parse with histograms untyped: each
  // _bucket, _sum and _count line is then a sample of its own, with its labels (a family per run of
  // lines of one name: prom-client prints each series' lines together, so a name recurs).
  const series = parsePrometheusTextFormat(res.text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped'));
  const samples = (name: string, labels: Record<string, string>): PrometheusSample[] =>
    series.flatMap((f) => (f.name === name ? f.metrics : [])).filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  const sum = (name: string, labels: Record<string, string>) => samples(name, labels).reduce((total, m) => total + Number(m.value), 0);
  return {
    families,
    value: (name, labels = {}) => sum(name, labels),
    observations: (name, labels = {}) => sum(`${name}_count`, labels),
  };
}

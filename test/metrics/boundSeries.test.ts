// The pre-bound histogram and counter (src/metrics/boundSeries.ts) scrape exactly as prom-client's own
// Histogram and Counter do for the same observations, so the exposition does not depend on which one
// records.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { boundCounter, boundHistogram } from '../../src/metrics/boundSeries.js';

const buckets = [0.001, 0.01, 0.1, 1];
const labelNames = ['operation_id', 'http_response_status_code'] as const;
const observations: [string, number, number][] = [
  ['listTripPlans', 200, 0.0004],
  ['listTripPlans', 200, 0.004],
  ['listTripPlans', 200, 0.25],
  ['getTripPlan', 404, 3],
  ['listTripPlans', 400, 0.001],
  ['getTripPlan', 404, 0.05],
];

async function scrapeOf(record: (registry: Registry) => void): Promise<string> {
  const registry = new Registry();
  record(registry);
  return registry.metrics();
}

describe('bound series', () => {
  it("scrape as prom-client's Histogram and Counter of the same observations", async () => {
    const theirs = await scrapeOf((registry) => {
      const histogram = new Histogram({ name: 'd_seconds', help: 'durations', labelNames, buckets, registers: [registry] });
      const counter = new Counter({ name: 'r_total', help: 'requests', labelNames, registers: [registry] });
      for (const [operation, status, value] of observations) {
        histogram.observe({ operation_id: operation, http_response_status_code: status }, value);
        counter.inc({ operation_id: operation, http_response_status_code: status });
      }
    });
    const ours = await scrapeOf((registry) => {
      const histogram = boundHistogram({ name: 'd_seconds', help: 'durations', labelNames, buckets, registers: [registry] });
      const counter = boundCounter({ name: 'r_total', help: 'requests', labelNames, registers: [registry] });
      for (const [operation, status, value] of observations) {
        histogram.series({ operation_id: operation, http_response_status_code: status }).observe(value);
        counter.series({ operation_id: operation, http_response_status_code: status }).inc();
      }
    });
    expect(ours).toBe(theirs);
    expect(ours).toContain('d_seconds_bucket{le="+Inf",operation_id="getTripPlan",http_response_status_code="404"} 2');
  });

  it('gives one series per label values, however often it is asked, and refuses an unknown label', () => {
    const histogram = boundHistogram({ name: 'h', help: 'h', labelNames, buckets, registers: [] });
    const labels = { operation_id: 'x', http_response_status_code: 200 };
    expect(histogram.series(labels)).toBe(histogram.series({ ...labels }));
    expect(() => histogram.series({ ...labels, other: 1 } as unknown as typeof labels)).toThrow(/other/);
  });

  it('scrapes nothing for a series after reset, as prom-client does', async () => {
    const registry = new Registry();
    const counter = boundCounter({ name: 'r_total', help: 'requests', labelNames, registers: [registry] });
    counter.series({ operation_id: 'x', http_response_status_code: 200 }).inc();
    registry.resetMetrics();
    expect(await registry.metrics()).toBe('# HELP r_total requests\n# TYPE r_total counter\n');
  });
});

// The dashboard's reading of /metrics: the Prometheus text format parsed as the page parses it, and
// requests/s and p99 over the window between two scrapes, on two scrapes of the fixture
// (test/fixtures/metrics/, prom-client's layout, 10 s apart) whose answers are worked out by hand below.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bucketIncreases,
  gaugeValue,
  histogramQuantile,
  parsePrometheusText,
  ratePerSecond,
  type Scrape,
} from '../../src/operational/dashboard/prometheusText.js';

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/metrics', name), 'utf8');
const scrapeAt = (at: number, text: string): Scrape => ({ at, samples: parsePrometheusText(text).samples });
const before = scrapeAt(1_000_000, fixture('scrape-before.prom'));
const after = scrapeAt(1_010_000, fixture('scrape-after.prom'));
const duration = 'http_server_request_duration_seconds';

describe('parsePrometheusText', () => {
  it('reads names, labels in any order, values and the TYPE of each family', () => {
    const { samples, types } = parsePrometheusText(fixture('scrape-after.prom'));
    expect(types[duration]).toBe('histogram');
    expect(types.trip_stomp_connections).toBe('gauge');
    expect(types.trip_generations_total).toBe('counter');
    expect(samples.find((s) => s.name === 'trip_stomp_connections')).toEqual({ name: 'trip_stomp_connections', labels: {}, value: 7 });
    expect(samples.find((s) => s.name === `${duration}_bucket` && s.labels.le === '0.5' && s.labels.operation_id === 'listTripPlans')).toEqual({
      name: `${duration}_bucket`,
      labels: {
        le: '0.5',
        http_request_method: 'GET',
        http_route: '/api/v1/trips',
        http_response_status_code: '200',
        operation_id: 'listTripPlans',
      },
      value: 137,
    });
    expect(samples.filter((s) => s.name === `${duration}_bucket`)).toHaveLength(30);
  });

  it('unescapes label values and reads +Inf, NaN, exponents and timestamps', () => {
    const { samples } = parsePrometheusText(
      [
        'trip_redis_reconnects_total{connection="plan log \\"follower\\"",note="a\\\\b\\nc"} 1',
        'x_bucket{le="+Inf"} +Inf',
        'x_sum NaN',
        'x_count 1.5e3 1700000000000',
        'y{a="1",} -Inf',
      ].join('\n'),
    );
    expect(samples[0]!.labels).toEqual({ connection: 'plan log "follower"', note: 'a\\b\nc' });
    expect(samples.map((s) => s.value)).toEqual([1, Infinity, NaN, 1500, -Infinity]);
    expect(samples[3]!.timestamp).toBe(1_700_000_000_000);
    expect(samples[4]!.labels).toEqual({ a: '1' });
  });

  it('names the line it cannot read', () => {
    expect(() => parsePrometheusText('# TYPE a counter\na 1\n{b="1"} 2')).toThrow('line 3: a metric name expected');
    expect(() => parsePrometheusText('a{b="1} 2')).toThrow('line 1: an unterminated label value');
    expect(() => parsePrometheusText('a 12abc')).toThrow('line 1: "12abc" is not a sample value');
    expect(() => parsePrometheusText('a{b=1} 2')).toThrow('line 1: ="…" expected after a label name');
  });
});

describe('the window between two scrapes', () => {
  it('requests/s: the request counts of every series grew by 95 + 5 in 10 s', () => {
    // listTripPlans 42 -> 137, getTripPlan 404 3 -> 8
    expect(ratePerSecond(before, after, `${duration}_count`)).toBe(10);
  });

  it('p99: 95 requests under 25 ms and 5 between 250 and 500 ms put the 99th in the 0.25-0.5 bucket, 4/5 of the way', () => {
    const buckets = bucketIncreases(before, after, duration);
    expect(buckets.map((b) => [b.le, b.count])).toEqual([
      [0.005, 0],
      [0.01, 0],
      [0.025, 95],
      [0.05, 95],
      [0.075, 95],
      [0.1, 95],
      [0.25, 95],
      [0.5, 100],
      [0.75, 100],
      [1, 100],
      [2.5, 100],
      [5, 100],
      [7.5, 100],
      [10, 100],
      [Infinity, 100],
    ]);
    expect(histogramQuantile(0.99, buckets)).toBeCloseTo(0.25 + 0.25 * (4 / 5), 12);
    // p50: the 50th of 95 in the 0.01-0.025 bucket
    expect(histogramQuantile(0.5, buckets)).toBeCloseTo(0.01 + 0.015 * (50 / 95), 12);
  });

  it('gauges: the value of the later scrape, summed over its series; null when not exposed', () => {
    expect(gaugeValue(after, 'trip_stomp_connections')).toBe(7);
    expect(gaugeValue(after, 'trip_generations_running')).toBe(2);
    expect(gaugeValue(after, 'trip_generations_waiting')).toBe(1);
    expect(gaugeValue(after, 'db_client_connection_count')).toBe(4);
    expect(gaugeValue(after, 'trip_not_a_metric')).toBeNull();
  });

  it('a counter that went down was reset and counts from zero; a series new in the later scrape counts whole', () => {
    const earlier = scrapeAt(0, 'c{instance="a"} 100\nc{instance="b"} 5');
    const later = scrapeAt(2000, 'c{instance="a"} 6\nc{instance="b"} 9\nc{instance="new"} 3');
    expect(ratePerSecond(earlier, later, 'c')).toBe((6 + 4 + 3) / 2);
  });

  it('no rate without time between the scrapes, no quantile without observations', () => {
    expect(ratePerSecond(before, before, `${duration}_count`)).toBeNull();
    expect(histogramQuantile(0.99, bucketIncreases(before, before, duration))).toBeNull();
    expect(histogramQuantile(0.99, [])).toBeNull();
    expect(histogramQuantile(0.99, [{ le: 1, count: 5 }])).toBeNull();
  });

  it('a rank in the +Inf bucket is the highest finite bound, as histogram_quantile() answers', () => {
    expect(
      histogramQuantile(0.99, [
        { le: 0.1, count: 90 },
        { le: 1, count: 95 },
        { le: Infinity, count: 100 },
      ]),
    ).toBe(1);
  });
});

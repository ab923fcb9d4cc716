// docs/grafana/trip-itinerary-service.json, the dashboard for teams that run Grafana, queries only
// metrics and labels the service's metrics registry defines: every PromQL expression of its panels
// and variables is read for the metric names and labels it uses, so renaming a metric or a label
// breaks this test, naming the panel. It also takes its Prometheus from a data source variable and
// has a panel for every agreed metric.
import fs from 'node:fs';
import path from 'node:path';
import type { MetricObject } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics/metricsRegistry.js';

const root = path.resolve(import.meta.dirname, '../..');
const dashboardFile = path.join(root, 'docs/grafana/trip-itinerary-service.json');

type MetricType = 'counter' | 'gauge' | 'histogram';
interface AgreedMetric {
  type: MetricType;
  labels: string[];
}

/**
 * The service's own metrics as its registry defines them (src/metrics/metricsRegistry.ts): name, type
 * and label names. prom-client's default process metrics are left out (no panel needs them).
 */
function agreedMetrics(): Map<string, AgreedMetric> {
  const { registry } = createMetrics({ waitingGenerations: () => Promise.resolve(0), connectionPool: () => ({ idle: 0, used: 0, pending: 0 }) });
  const metrics = new Map<string, AgreedMetric>();
  for (const metric of registry.getMetricsAsArray() as (MetricObject & { labelNames?: readonly string[] })[]) {
    if (metric.name.startsWith('process_') || metric.name.startsWith('nodejs_')) continue;
    metrics.set(metric.name, { type: String(metric.type) as MetricType, labels: [...(metric.labelNames ?? [])] });
  }
  return metrics;
}

/** Labels Prometheus adds to every series it scrapes. */
const targetLabels = ['instance', 'job'];
const notMetrics = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);

interface Reading {
  metrics: string[];
  labels: string[];
  /** the metric inside each rate(), irate() and increase() */
  rated: string[];
}

/** The metric names and labels a PromQL expression (Grafana variables allowed) uses. */
function readPromql(expr: string): Reading {
  const labels: string[] = [];
  const rated = [...expr.matchAll(/\b(?:rate|irate|increase)\(\s*([a-zA-Z_:][\w:]*)/g)].map((m) => m[1]!);
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  rest = rest.replace(/\{([^}]*)\}/g, (_all, matchers: string) => {
    for (const [, label] of matchers.matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g)) labels.push(label!);
    return ' ';
  });
  rest = rest.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_all, names: string) => {
    labels.push(
      ...names
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    );
    return ' ';
  });
  rest = rest.replace(/\[[^\]]*\]/g, ' ').replace(/\$\{?\w+\}?/g, ' ');
  // label_values(metric, label): the second argument is a label.
  rest = rest.replace(/\blabel_values\(\s*([a-zA-Z_:][\w:]*)\s*,\s*([a-zA-Z_]\w*)\s*\)/g, (_all, metric: string, label: string) => {
    labels.push(label);
    return ` ${metric} `;
  });
  const metrics = [...rest.matchAll(/[a-zA-Z_:][\w:]*(?!\w*\s*\()/g)].map((m) => m[0]).filter((name) => !notMetrics.has(name.toLowerCase()));
  return { metrics, labels, rated };
}

/** The agreed metric a series name belongs to: itself, or the histogram of a _bucket, _sum or _count. */
function resolve(name: string, agreed: Map<string, AgreedMetric>): { base: string; metric: AgreedMetric; part: string } | null {
  const direct = agreed.get(name);
  if (direct) return { base: name, metric: direct, part: '' };
  const part = /_(bucket|sum|count)$/.exec(name)?.[0];
  const base = part ? agreed.get(name.slice(0, -part.length)) : undefined;
  return part && base?.type === 'histogram' ? { base: name.slice(0, -part.length), metric: base, part } : null;
}

/** Problems of one expression against the agreed list; none when it only uses agreed names. */
function problemsOf(where: string, expr: string, agreed: Map<string, AgreedMetric>): string[] {
  const problems: string[] = [];
  const { metrics, labels, rated } = readPromql(expr);
  const allowed = new Set(targetLabels);
  if (metrics.length === 0) problems.push(`${where}: no metric in ${expr}`);
  for (const name of metrics) {
    const found = resolve(name, agreed);
    if (!found) {
      problems.push(`${where}: ${name} is not an agreed metric`);
      continue;
    }
    if (found.metric.type === 'histogram' && found.part === '') problems.push(`${where}: ${name} is a histogram; query its _bucket, _sum or _count`);
    found.metric.labels.forEach((label) => allowed.add(label));
    if (found.part === '_bucket') allowed.add('le');
  }
  for (const label of labels) if (!allowed.has(label)) problems.push(`${where}: label ${label} is not a label of ${metrics.join(', ')}`);
  for (const name of rated) {
    const found = resolve(name, agreed);
    if (found && found.metric.type === 'gauge') problems.push(`${where}: ${name} is a gauge, it has no rate`);
  }
  return problems;
}

interface Target {
  expr?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  query: string | { query: string };
  datasource?: { uid?: string };
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Variable[] };
}

const dashboard = JSON.parse(fs.readFileSync(dashboardFile, 'utf8')) as Dashboard;
const agreed = agreedMetrics();
const graphs = dashboard.panels.filter((p) => p.type !== 'row');
const expressions: [where: string, expr: string][] = [
  ...graphs.flatMap((panel) => (panel.targets ?? []).map((t, i): [string, string] => [`panel "${panel.title}" query ${i + 1}`, t.expr ?? ''])),
  ...dashboard.templating.list
    .filter((v) => v.type === 'query')
    .map((v): [string, string] => [`variable ${v.name}`, typeof v.query === 'string' ? v.query : v.query.query]),
];

describe('the Grafana dashboard', () => {
  it("reads the service's metrics from its registry, with their types and labels", () => {
    expect(agreed.size).toBe(22);
    expect(agreed.get('http_server_request_duration_seconds')).toEqual({
      type: 'histogram',
      labels: ['http_request_method', 'http_route', 'http_response_status_code', 'operation_id'],
    });
    expect(agreed.get('trip_generations_waiting')).toEqual({ type: 'gauge', labels: [] });
  });

  it('is JSON with a uid, a title and panels, each with its own id', () => {
    expect(dashboard.uid).toBe('trip-itinerary-service');
    expect(dashboard.title).toBe('Trip Itinerary Service');
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(graphs.length).toBeGreaterThanOrEqual(14);
  });

  it('takes Prometheus from a data source variable, in every panel and query', () => {
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(variable).toMatchObject({ name: 'datasource', query: 'prometheus' });
    for (const panel of graphs) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      for (const target of panel.targets ?? []) expect(target.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
    }
  });

  it('queries only agreed metrics and their labels, rates only counters and histograms', () => {
    expect(expressions.length).toBeGreaterThan(20);
    expect(expressions.flatMap(([where, expr]) => problemsOf(where, expr, agreed))).toEqual([]);
  });

  it('has a panel for every agreed metric', () => {
    const used = new Set(expressions.flatMap(([, expr]) => readPromql(expr).metrics.map((name) => resolve(name, agreed)?.base)));
    expect([...agreed.keys()].filter((name) => !used.has(name))).toEqual([]);
  });

  it('the check names a renamed metric, a renamed label, a gauge under rate() and a histogram queried bare', () => {
    expect(problemsOf('p', 'sum(trip_stomp_connection{instance=~"$instance"})', agreed)).toEqual(['p: trip_stomp_connection is not an agreed metric']);
    expect(problemsOf('p', 'sum by (operation) (rate(http_server_requests_total[$__rate_interval]))', agreed)).toEqual([
      'p: label operation is not a label of http_server_requests_total',
    ]);
    expect(problemsOf('p', 'rate(trip_generations_running[5m])', agreed)).toEqual(['p: trip_generations_running is a gauge, it has no rate']);
    expect(problemsOf('p', 'trip_generation_first_day_seconds', agreed)).toEqual([
      'p: trip_generation_first_day_seconds is a histogram; query its _bucket, _sum or _count',
    ]);
    expect(
      problemsOf('p', 'histogram_quantile(0.99, sum by (operation_id, le) (rate(http_server_request_duration_seconds_bucket{job="trips"}[5m])))', agreed),
    ).toEqual([]);
  });
});

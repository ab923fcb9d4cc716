// A histogram and a counter whose label sets are bound once per series, for the metrics recorded on
// every request: prom-client's own (15.1) validates and hashes the label object on every
// observation, even through `labels()`, which cost about a fiftieth of a list request. A bound
// series is a plain object the caller keeps; recording is a bucket search and two additions. Both
// register in a prom-client Registry as metrics of their type, and their scrape has the shape
// prom-client's Histogram and Counter give (buckets cumulative with `le`, then `+Inf`, `_sum`,
// `_count`), so the exposition does not change.
import type { Registry } from 'prom-client';

type LabelValues<Names extends string> = Record<Names, string | number>;

export interface BoundHistogramSeries {
  observe(value: number): void;
}

export interface BoundCounterSeries {
  inc(): void;
}

interface HistogramSeries<Names extends string> extends BoundHistogramSeries {
  labels: LabelValues<Names>;
  buckets: number[];
  sum: number;
  count: number;
}

interface CounterSeries<Names extends string> extends BoundCounterSeries {
  labels: LabelValues<Names>;
  value: number;
}

interface MetricDefinition<Names extends string> {
  name: string;
  help: string;
  labelNames: readonly Names[];
  registers: Registry[];
}

/** The metric a Registry reads (prom-client calls `get()` at scrape and `reset()` on resetMetrics). */
interface RegisteredMetric {
  name: string;
  help: string;
  type: 'histogram' | 'counter';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: unknown[] }>;
  reset(): void;
}

function register(metric: RegisteredMetric, registers: Registry[]): void {
  for (const registry of registers) registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}

/** The series of a metric by their label values; refuses a label the metric does not have, as prom-client does. */
function seriesStore<Names extends string, Series>(names: readonly Names[], make: (labels: LabelValues<Names>) => Series) {
  const byLabels = new Map<string, Series>();
  return {
    of(labels: LabelValues<Names>): Series {
      for (const name of Object.keys(labels)) if (!names.includes(name as Names)) throw new Error(`label ${name} is not one of ${names.join(', ')}`);
      const key = names.map((name) => String(labels[name] ?? '')).join('\u0000');
      let series = byLabels.get(key);
      if (series === undefined) byLabels.set(key, (series = make(labels)));
      return series;
    },
    /** in the order they were made, which is the order of the scrape */
    all: () => byLabels.values(),
  };
}

export function boundHistogram<Names extends string>(definition: MetricDefinition<Names> & { buckets: readonly number[] }) {
  const upperBounds = [...definition.buckets];
  const series = seriesStore(definition.labelNames, (labels): HistogramSeries<Names> => {
    const made: HistogramSeries<Names> = {
      labels,
      buckets: upperBounds.map(() => 0),
      sum: 0,
      count: 0,
      observe(value) {
        for (let i = 0; i < upperBounds.length; i++) {
          if (value <= upperBounds[i]!) {
            made.buckets[i]!++;
            break;
          }
        }
        made.sum += value;
        made.count++;
      },
    };
    return made;
  });
  const metric = {
    name: definition.name,
    help: definition.help,
    labelNames: [...definition.labelNames],
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    /** The series of these label values (made on first use); keep it and observe on it. */
    series: (labels: LabelValues<Names>): BoundHistogramSeries => series.of(labels),
    get() {
      const values: unknown[] = [];
      for (const one of series.all()) {
        if (one.count === 0) continue;
        let cumulative = 0;
        upperBounds.forEach((le, i) => {
          cumulative += one.buckets[i]!;
          values.push({ labels: { le }, sharedLabels: one.labels, value: cumulative, metricName: `${definition.name}_bucket` });
        });
        values.push({ labels: { le: '+Inf' }, sharedLabels: one.labels, value: one.count, metricName: `${definition.name}_bucket` });
        values.push({ labels: {}, sharedLabels: one.labels, value: one.sum, metricName: `${definition.name}_sum` });
        values.push({ labels: {}, sharedLabels: one.labels, value: one.count, metricName: `${definition.name}_count` });
      }
      return Promise.resolve({ name: definition.name, help: definition.help, type: 'histogram', aggregator: 'sum' as const, values });
    },
    reset() {
      for (const one of series.all()) {
        one.buckets.fill(0);
        one.sum = 0;
        one.count = 0;
      }
    },
  };
  register(metric, definition.registers);
  return metric;
}

export function boundCounter<Names extends string>(definition: MetricDefinition<Names>) {
  const series = seriesStore(definition.labelNames, (labels): CounterSeries<Names> => {
    const made: CounterSeries<Names> = {
      labels,
      value: 0,
      inc() {
        made.value++;
      },
    };
    return made;
  });
  const metric = {
    name: definition.name,
    help: definition.help,
    labelNames: [...definition.labelNames],
    type: 'counter' as const,
    aggregator: 'sum' as const,
    /** The series of these label values (made on first use); keep it and count on it. */
    series: (labels: LabelValues<Names>): BoundCounterSeries => series.of(labels),
    get() {
      const values = [...series.all()].filter((one) => one.value > 0).map((one) => ({ labels: one.labels, value: one.value }));
      return Promise.resolve({ name: definition.name, help: definition.help, type: 'counter', aggregator: 'sum' as const, values });
    },
    reset() {
      for (const one of series.all()) one.value = 0;
    },
  };
  register(metric, definition.registers);
  return metric;
}

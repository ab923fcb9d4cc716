// Types of prometheusText.js (plain JavaScript, so that the dashboard page loads the same file).

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
  /** ms, when the exposition gives one */
  timestamp?: number;
}

export interface Exposition {
  samples: Sample[];
  /** TYPE of each family: counter, gauge, histogram, summary, untyped */
  types: Record<string, string>;
}

/** An exposition read at `at` (ms). */
export interface Scrape {
  at: number;
  samples: Sample[];
}

export interface Bucket {
  le: number;
  count: number;
}

export function parsePrometheusText(text: string): Exposition;
export function seriesKey(sample: Sample): string;
export function ratePerSecond(before: Scrape, after: Scrape, name: string): number | null;
export function bucketIncreases(before: Scrape, after: Scrape, histogram: string): Bucket[];
export function histogramQuantile(q: number, buckets: Bucket[]): number | null;
export function gaugeValue(scrape: Scrape, name: string): number | null;

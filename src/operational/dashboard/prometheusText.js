// The Prometheus text format (0.0.4, what prom-client serves) read into samples, and the maths the
// dashboard draws from two scrapes: a counter's rate and a histogram's quantile over the window
// between them, as Prometheus's rate() and histogram_quantile() compute them. Plain JavaScript with
// no imports: the dashboard page loads this very file as a module (served as a static asset), and the
// unit tests import it (types in prometheusText.d.ts).

const specialValues = new Map([
  ['+Inf', Infinity],
  ['Inf', Infinity],
  ['-Inf', -Infinity],
  ['NaN', NaN],
]);
const namePattern = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const labelNamePattern = /^[a-zA-Z_][a-zA-Z0-9_]*/;

function parseValue(text, lineNumber) {
  const special = specialValues.get(text);
  if (special !== undefined) return special;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`line ${lineNumber}: "${text}" is not a sample value`);
  return value;
}

/** `{a="x",b="y\"z"}` from `at` (the `{`): the labels and the index after the `}`. */
function parseLabels(line, at, lineNumber) {
  const labels = {};
  let i = at + 1;
  const fail = (what) => {
    throw new Error(`line ${lineNumber}: ${what} at column ${i + 1}`);
  };
  while (line[i] !== '}') {
    while (line[i] === ' ') i++;
    if (line[i] === '}') break;
    const name = labelNamePattern.exec(line.slice(i))?.[0];
    if (!name) fail('a label name expected');
    i += name.length;
    if (line[i] !== '=' || line[i + 1] !== '"') fail('="…" expected after a label name');
    i += 2;
    let value = '';
    for (;;) {
      const ch = line[i];
      if (ch === undefined) fail('an unterminated label value');
      i++;
      if (ch === '"') break;
      if (ch !== '\\') value += ch;
      else {
        const escaped = line[i++];
        value += escaped === 'n' ? '\n' : escaped;
      }
    }
    labels[name] = value;
    while (line[i] === ' ') i++;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') fail('"," or "}" expected');
  }
  return { labels, end: i + 1 };
}

/**
 * Every sample of an exposition, with the TYPE of each family (`# TYPE name counter`). Throws on a
 * line that is not a comment, a blank or a sample, naming the line.
 */
export function parsePrometheusText(text) {
  const samples = [];
  const types = {};
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    const lineNumber = index + 1;
    if (line === '') return;
    if (line.startsWith('#')) {
      const [, keyword, family, type] = line.split(/\s+/);
      if (keyword === 'TYPE' && family && type) types[family] = type;
      return;
    }
    const name = namePattern.exec(line)?.[0];
    if (!name) throw new Error(`line ${lineNumber}: a metric name expected`);
    let rest = name.length;
    let labels = {};
    if (line[rest] === '{') ({ labels, end: rest } = parseLabels(line, rest, lineNumber));
    const [value, timestamp] = line.slice(rest).trim().split(/\s+/);
    const sample = { name, labels, value: parseValue(value ?? '', lineNumber) };
    // A sample's own time (ms), when the exposition gives one; prom-client never does.
    if (timestamp !== undefined) sample.timestamp = parseValue(timestamp, lineNumber);
    samples.push(sample);
  });
  return { samples, types };
}

/** One series: its name and its labels in name order. */
export function seriesKey(sample) {
  const labels = Object.keys(sample.labels)
    .sort()
    .map((name) => `${name}=${JSON.stringify(sample.labels[name])}`);
  return `${sample.name}{${labels.join(',')}}`;
}

/** The samples of a metric in a scrape, by series. */
function seriesOf(scrape, name) {
  return new Map(scrape.samples.filter((s) => s.name === name).map((s) => [seriesKey(s), s]));
}

/**
 * How much a counter grew from one scrape to the next, per series. A series that went down was
 * reset (the process restarted) and counts from zero, as in Prometheus; a series the earlier scrape
 * did not have was created in between (prom-client makes a series at its first increment), so all
 * of it is new.
 */
function increases(before, after, name) {
  const earlier = seriesOf(before, name);
  return [...seriesOf(after, name)].map(([key, sample]) => {
    const was = earlier.get(key)?.value ?? 0;
    return { sample, increase: sample.value >= was ? sample.value - was : sample.value };
  });
}

/** The growth of a counter summed over all its series, per second; null without time between the scrapes. */
export function ratePerSecond(before, after, name) {
  const seconds = (after.at - before.at) / 1000;
  if (!(seconds > 0)) return null;
  return increases(before, after, name).reduce((sum, { increase }) => sum + increase, 0) / seconds;
}

/** A histogram's buckets over the window between two scrapes, summed over its series by `le`, in `le` order. */
export function bucketIncreases(before, after, histogram) {
  const byBound = new Map();
  for (const { sample, increase } of increases(before, after, `${histogram}_bucket`)) {
    const le = parseValue(sample.labels.le ?? '', 0);
    byBound.set(le, (byBound.get(le) ?? 0) + increase);
  }
  return [...byBound].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/**
 * The q-quantile of cumulative buckets, as Prometheus's histogram_quantile(): linear within the
 * bucket the rank falls in (the first bucket starts at 0), the highest finite bound when it falls in
 * +Inf, null when the buckets hold no observation or have no +Inf bucket.
 */
export function histogramQuantile(q, buckets) {
  const last = buckets[buckets.length - 1];
  if (!last || last.le !== Infinity || !(last.count > 0)) return null;
  // Counts summed from series reset at different moments can dip: cumulative buckets never do.
  let highest = 0;
  const counts = buckets.map((b) => (highest = Math.max(highest, b.count)));
  const rank = q * counts[counts.length - 1];
  const index = counts.findIndex((count) => count >= rank);
  if (index === buckets.length - 1) return buckets.length > 1 ? buckets[index - 1].le : null;
  const lower = index === 0 ? 0 : buckets[index - 1].le;
  const below = index === 0 ? 0 : counts[index - 1];
  const upper = buckets[index].le;
  if (index === 0 && upper <= 0) return upper;
  return lower + ((upper - lower) * (rank - below)) / (counts[index] - below);
}

/** A gauge summed over its series; null when the scrape does not have the metric. */
export function gaugeValue(scrape, name) {
  const series = scrape.samples.filter((s) => s.name === name);
  return series.length === 0 ? null : series.reduce((sum, s) => sum + s.value, 0);
}

// The dashboard page's script: scrapes /metrics of the page's own origin every few seconds (with the
// METRICS token the person pasted, kept in sessionStorage for this tab), reads it with
// prometheusText.js and draws the numbers with uPlot (loaded before this module as a classic script,
// from the installed package). The page's <main> names the metrics address and the interval.
/* global document, window, sessionStorage, fetch, setTimeout, clearTimeout, uPlot */
import { bucketIncreases, gaugeValue, histogramQuantile, parsePrometheusText, ratePerSecond } from './prometheusText.js';

const main = document.querySelector('main');
const metricsUrl = main.dataset.metricsUrl;
const intervalMs = Number(main.dataset.intervalMs);
/** p99 over the requests of this long (the histogram's buckets then and now) */
const quantileWindowMs = 30_000;
/** points kept on the charts: ten minutes */
const keptPoints = Math.ceil(600_000 / intervalMs);
const tokenKey = 'metricsToken';
const duration = 'http_server_request_duration_seconds';

const formatRate = (v) => (v >= 100 ? String(Math.round(v)) : v.toFixed(1));
const formatSeconds = (v) => (v < 1 ? `${Math.round(v * 1000)} ms` : `${v.toFixed(2)} s`);
const formatCount = (v) => String(v);

/** What each chart draws from a scrape and the history before it, and how its latest value reads. */
const charts = [
  { id: 'requests', series: [{ label: 'requests/s', stroke: '#0969da', value: (p) => p.requestsPerSecond }], format: formatRate, unit: '/s' },
  {
    id: 'p99',
    series: [{ label: 'p99 (ms)', stroke: '#cf222e', value: (p) => (p.p99 === null ? null : p.p99 * 1000) }],
    format: (v) => formatSeconds(v / 1000),
    unit: ' ms',
  },
  { id: 'stomp', series: [{ label: 'connections', stroke: '#8250df', value: (p) => p.stompConnections }], format: formatCount },
  {
    id: 'generations',
    series: [
      { label: 'running', stroke: '#1a7f37', value: (p) => p.running },
      { label: 'waiting', stroke: '#bc4c00', value: (p) => p.waiting },
    ],
    format: formatCount,
  },
];

const history = [];
const times = [];
for (const chart of charts) {
  chart.data = [times, ...chart.series.map(() => [])];
  const element = document.getElementById(`chart-${chart.id}`);
  chart.plot = new uPlot(
    {
      width: element.clientWidth || 600,
      height: 200,
      scales: { x: { time: true }, y: { range: (_u, min, max) => [0, Math.max(1, max * 1.15)] } },
      series: [{}, ...chart.series.map((s) => ({ label: s.label, stroke: s.stroke, width: 2, spanGaps: false }))],
      axes: [{}, { size: 70, values: (_u, ticks) => ticks.map((tick) => `${tick}${chart.unit ?? ''}`) }],
      // The values are in the caption, the series named there in their colours.
      legend: { show: false },
    },
    chart.data,
    element,
  );
}
window.addEventListener('resize', () => {
  for (const chart of charts) chart.plot.setSize({ width: document.getElementById(`chart-${chart.id}`).clientWidth || 600, height: 200 });
});

/** The numbers of one scrape, against the scrapes before it. */
function pointOf(current) {
  const previous = history[history.length - 1];
  const windowStart = history.find((s) => current.at - s.at <= quantileWindowMs) ?? previous;
  return {
    requestsPerSecond: previous ? ratePerSecond(previous, current, `${duration}_count`) : null,
    p99: windowStart ? histogramQuantile(0.99, bucketIncreases(windowStart, current, duration)) : null,
    stompConnections: gaugeValue(current, 'trip_stomp_connections'),
    running: gaugeValue(current, 'trip_generations_running'),
    waiting: gaugeValue(current, 'trip_generations_waiting'),
  };
}

function show(chart, point) {
  const readings = chart.series.map((s) => s.value(point));
  chart.series.forEach((s, i) => {
    chart.data[i + 1].push(readings[i]);
    const output = document.getElementById(`value-${chart.id}${chart.series.length > 1 ? `-${s.label}` : ''}`);
    output.textContent = readings[i] === null ? '–' : chart.format(readings[i]);
  });
}

function record(scrape) {
  const point = pointOf(scrape);
  history.push(scrape);
  while (history.length > 1 && scrape.at - history[1].at > quantileWindowMs) history.shift();
  times.push(scrape.at / 1000);
  for (const chart of charts) show(chart, point);
  if (times.length > keptPoints) {
    times.shift();
    for (const chart of charts) for (const column of chart.data.slice(1)) column.shift();
  }
  for (const chart of charts) chart.plot.setData(chart.data);
  const noRequests = point.p99 === null && history.length > 1;
  document.getElementById('note-p99').textContent = noRequests ? 'no requests in the window' : '';
  main.dataset.scrapes = String(Number(main.dataset.scrapes ?? '0') + 1);
  setProblem(null);
  document.getElementById('status').textContent =
    `${main.dataset.scrapes} scrapes of ${metricsUrl}, every ${intervalMs / 1000} s; last at ${new Date(scrape.at).toLocaleTimeString()}.`;
}

function setProblem(text) {
  const problem = document.getElementById('problem');
  problem.hidden = text === null;
  problem.textContent = text ?? '';
  if (text !== null) main.dataset.problems = String(Number(main.dataset.problems ?? '0') + 1);
}

function notExposed(status) {
  const token = sessionStorage.getItem(tokenKey);
  if (status === 401 && token) return 'metrics not exposed: set METRICS_TOKEN — the server refused this token (401); paste the one it was started with.';
  if (status === 401) return 'metrics not exposed: set METRICS_TOKEN — the server asks for its token (401); paste it above.';
  return 'metrics not exposed: set METRICS_TOKEN on the server (/metrics answered 404: without a token it is served on a loopback address only).';
}

async function scrapeOnce() {
  const at = Date.now();
  const token = sessionStorage.getItem(tokenKey);
  let response;
  try {
    response = await fetch(metricsUrl, { cache: 'no-store', headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch (error) {
    return setProblem(`cannot reach ${metricsUrl}: ${error.message}`);
  }
  if (response.status === 401 || response.status === 404) return setProblem(notExposed(response.status));
  if (!response.ok) return setProblem(`${metricsUrl} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  let samples;
  try {
    samples = parsePrometheusText(await response.text()).samples;
  } catch (error) {
    return setProblem(`cannot read ${metricsUrl}: ${error.message}`);
  }
  record({ at, samples });
}

let timer;
function scrapeNow() {
  clearTimeout(timer);
  // The next scrape is planned when this one is over: a slow server never gets two at once.
  void scrapeOnce().finally(() => {
    timer = setTimeout(scrapeNow, intervalMs);
  });
}

const tokenInput = document.getElementById('metrics-token');
const tokenState = () => {
  document.getElementById('token-state').textContent = sessionStorage.getItem(tokenKey) ? 'A token is set for this tab.' : 'No token set.';
};
document.getElementById('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  if (tokenInput.value) sessionStorage.setItem(tokenKey, tokenInput.value.trim());
  tokenInput.value = '';
  tokenState();
  scrapeNow();
});
document.getElementById('forget-token').addEventListener('click', () => {
  sessionStorage.removeItem(tokenKey);
  tokenState();
  scrapeNow();
});
tokenState();
scrapeNow();

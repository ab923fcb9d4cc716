// /docs/dashboard: live charts of a server's /metrics (requests/s, p99, STOMP connections,
// generations running and waiting) for a person who has a browser and no Prometheus. The page
// scrapes /metrics of its own origin; its scripts (dashboard/*.js) and uPlot (from the installed
// package, no CDN) are static assets. `npm run dashboard` serves the same page beside a proxy of
// another instance's /metrics (tools/dashboard/).
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Env, Hono } from 'hono';
import { operationPath } from '../kernel/operationPath.js';
import { escapeHtml, navBar, navBarCss } from './docLinks.js';
import { registerStaticAssets, type StaticAsset } from './staticAssets.js';

const require = createRequire(import.meta.url);
const uplotDir = path.dirname(require.resolve('uplot/package.json'));
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const javascript = 'text/javascript; charset=utf-8';

// Both from the route table: the page and the endpoint it scrapes are operations of openapi.yaml.
export const dashboardPath = operationPath('getMetricsDashboard', {});
const metricsPath = operationPath('getMetrics', {});
const assetsPath = `${dashboardPath}/assets`;

const dashboardAssets: Record<string, StaticAsset> = {
  'dashboard.js': { file: path.join(import.meta.dirname, 'dashboard/dashboard.js'), type: javascript },
  'prometheusText.js': { file: path.join(import.meta.dirname, 'dashboard/prometheusText.js'), type: javascript },
  'uPlot.iife.min.js': { file: path.join(uplotDir, 'dist/uPlot.iife.min.js'), type: javascript },
  'uPlot.min.css': { file: path.join(uplotDir, 'dist/uPlot.min.css'), type: 'text/css; charset=utf-8' },
  // Its own copy: the page served by `npm run dashboard` has no /docs/assets/ to take it from.
  'favicon-32x32.png': { file: path.join(swaggerUiDir, 'favicon-32x32.png'), type: 'image/png' },
};

export interface DashboardPageOptions {
  /** what the page says it shows, e.g. "this server" or the proxied instance's address */
  source: string;
  /** the bar linking the other docs pages; off where they are not served (npm run dashboard) */
  withNavBar: boolean;
  /** between two scrapes */
  intervalMs?: number;
}

const chart = (id: string, title: string, outputs: string) =>
  `<figure class="chart"><figcaption><span>${title}</span> ${outputs}</figcaption><div id="chart-${id}" class="plot"></div></figure>`;
const output = (id: string, label = '') => `<output id="value-${id}" aria-label="${label}">–</output>`;

export function renderDashboardPage({ source, withNavBar, intervalMs = 5000 }: DashboardPageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Live metrics · Trip Itinerary Service</title>
  <link rel="icon" type="image/png" href="${assetsPath}/favicon-32x32.png">
  <link rel="stylesheet" href="${assetsPath}/uPlot.min.css">
  <style>${navBarCss}
body{margin:0;color:#1b1f24;font:15px/1.5 system-ui,sans-serif;background:#f6f8fa}main{max-width:78rem;margin:1.25rem auto;padding:0 1.25rem}
h1{font-size:1.4rem;margin:.2rem 0}h1 small{color:#57606a;font-size:.7em;font-weight:400}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.6rem 0}input{font:inherit;padding:.2rem .4rem;width:18rem}
#status,#token-state{color:#57606a;margin:.3rem 0}#problem{background:#ffebe9;border:1px solid #ff8182;border-radius:6px;padding:.5rem .8rem;margin:.6rem 0}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(34rem,1fr));gap:1rem}
.chart{margin:0;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.6rem .8rem}
figcaption{display:flex;gap:1rem;align-items:baseline;font-weight:600}figcaption output{font:600 1.3rem/1 ui-monospace,monospace;color:#0969da}
figcaption small{font-weight:400;color:#57606a}.plot{min-height:200px}
small.running,#value-generations-running{color:#1a7f37}small.waiting,#value-generations-waiting{color:#bc4c00}</style>
</head>
<body>
${withNavBar ? navBar(dashboardPath) : ''}
<main data-metrics-url="${metricsPath}" data-interval-ms="${intervalMs}">
  <h1>Live metrics <small>of ${escapeHtml(source)}, from /metrics every ${intervalMs / 1000} s</small></h1>
  <form id="token-form">
    <label for="metrics-token">METRICS token</label>
    <input id="metrics-token" type="password" autocomplete="off" placeholder="when the server sets METRICS_TOKEN">
    <button type="submit">Use token</button> <button type="button" id="forget-token">Forget token</button>
    <span id="token-state"></span>
  </form>
  <p id="status" role="status">No scrape of /metrics yet.</p>
  <p id="problem" role="alert" hidden></p>
  <section class="charts">
    ${chart('requests', 'Requests/s', output('requests', 'requests per second'))}
    ${chart('p99', 'p99 latency <small>(last 30 s)</small>', `${output('p99', 'p99 latency')} <small id="note-p99"></small>`)}
    ${chart('stomp', 'STOMP connections', output('stomp', 'STOMP connections'))}
    ${chart('generations', 'Generations', `<small class="running">running</small> ${output('generations-running', 'generations running')} <small class="waiting">waiting</small> ${output('generations-waiting', 'generations waiting')}`)}
  </section>
</main>
<script src="${assetsPath}/uPlot.iife.min.js"></script>
<script type="module" src="${assetsPath}/dashboard.js"></script>
</body>
</html>
`;
}

/** The page's scripts, uPlot and the icon, under /docs/dashboard/assets/. */
export function registerDashboardAssets<E extends Env>(app: Hono<E>): void {
  registerStaticAssets(app, assetsPath, dashboardAssets);
}

// The live metrics page in Debian's chromium (playwright-core, as docsInBrowser.test.ts): it loads
// with no request leaving the served origin, asks for the METRICS token when /metrics wants one,
// and draws what /metrics served. The page's clock is playwright's: each scrape happens when the
// test moves the clock on by the page's interval, so the window of a rate is exactly 5 s.
//
// For exact numbers /metrics is a stand-in (test/support/metricsStandIn.ts) answered by a small app
// in front of the real server: the traffic of each scrape is known to the request. The page and its
// assets are the real server's, and one case runs against the server's own /metrics.
import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDashboardServer, type RunningDashboardServer } from '../../tools/dashboard/dashboardServer.js';
import type { HttpEnv } from '../../src/http/httpEnv.js';
import { chromiumAvailable, launchHeadlessChromium } from '../support/headlessChromium.js';
import { createMetricsStandIn, type MetricsStandIn, type Traffic } from '../support/metricsStandIn.js';
import { connectStomp, wsUrl } from '../support/stompTestClient.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const haveChromium = chromiumAvailable('test/browser/dashboardInBrowser');
const artifacts = path.resolve(import.meta.dirname, '../../.tmp/artifacts');
const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);
const token = 'dashboard-test-token-0123456789';
const intervalMs = 5000;

/**
 * Scrape n: 95 list requests (90 under 25 ms, 5 between 250 and 500 ms) and 5 fast 404s on a plan,
 * twice as many from the third scrape on; the gauges move every scrape.
 */
function traffic(n: number): Traffic {
  const k = n < 3 ? 1 : 2;
  return {
    requests: [
      { operationId: 'listTripPlans', method: 'GET', route: '/api/v1/trips', status: 200, fast: 90 * k, slow: 5 * k },
      { operationId: 'getTripPlan', method: 'GET', route: '/api/v1/trips/{tripPlanId}', status: 404, fast: 5 * k, slow: 0 },
    ],
    stompConnections: 3 + 2 * n,
    stompSubscriptions: 6 + 3 * n,
    generationsRunning: n,
    generationsWaiting: 4 - n,
    generationsCompleted: 1,
  };
}

/** How the instance answers /metrics: with the token, or not at all (no METRICS_TOKEN on a public address). */
type Exposure = 'token' | 'not exposed';

describe.skipIf(!haveChromium)('the live metrics page in a browser', { timeout: 90_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let standIn: MetricsStandIn;
  let exposure: Exposure;
  /** console errors, page errors and requests that left the origin, for the current test */
  let problems: string[];
  /** console errors the current test expects (the browser's own line for a 401 or 404 it provoked) */
  let expectedErrors: RegExp[];

  beforeAll(async () => {
    fs.mkdirSync(artifacts, { recursive: true });
    server = await startTestServer(
      {},
      {
        front: (app) => {
          const front = new Hono<HttpEnv>();
          front.get('/metrics', (c) => {
            if (exposure === 'not exposed') return c.notFound();
            if (c.req.header('authorization') !== `Bearer ${token}`) return c.text('a METRICS token is required', 401);
            return c.text(standIn.expose(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
          });
          front.all('*', (c) => app.hono.fetch(c.req.raw, c.env));
          return front;
        },
      },
    );
    browser = await launchHeadlessChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openDashboard(url: string): Promise<Page> {
    problems = [];
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(30_000);
    const origin = new URL(url).origin;
    await context.route('**/*', (route) => {
      const requested = new URL(route.request().url());
      if (loopback.has(requested.hostname) && requested.origin === origin) return route.continue();
      problems.push(`request left ${origin}: ${requested.href}`);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !expectedErrors.some((expected) => expected.test(message.text())))
        problems.push(`console error on ${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
    // Paused: no scrape but the one on load and those the test lets happen by moving the clock on.
    await page.clock.install({ time: Date.parse('2026-11-26T10:00:00Z') });
    await page.clock.pauseAt(Date.parse('2026-11-26T10:00:10Z'));
    await page.goto(url);
    return page;
  }

  const scrapesShown = (page: Page) => page.locator('main').getAttribute('data-scrapes');
  const shown = (page: Page, id: string) => page.locator(`#value-${id}`).innerText();

  /** The next scrape, when the page's timer fires; resolves once the page has drawn it. */
  async function nextScrape(page: Page): Promise<void> {
    const before = standIn.scrapes;
    await page.clock.runFor(intervalMs);
    await expect.poll(() => standIn.scrapes).toBe(before + 1);
    await expect.poll(() => scrapesShown(page)).toBe(String(before + 1));
  }

  /** Pixels of a chart's canvas in a series' colour: the line is drawn, not just the axes. */
  const linePixels = (page: Page, chart: string, [r, g, b]: [number, number, number]) =>
    page.locator(`#chart-${chart} canvas`).evaluate(
      (canvas: { width: number; height: number; getContext(kind: '2d'): { getImageData(...xywh: number[]): { data: ArrayLike<number> } } }, rgb: number[]) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] === rgb[0] && data[i + 1] === rgb[1] && data[i + 2] === rgb[2] && data[i + 3] === 255) count++;
        return count;
      },
      [r, g, b],
    );

  afterEach(async () => {
    await context?.close();
    expect(problems).toEqual([]);
  });

  it('asks for the token on 401, then draws requests/s, p99, STOMP connections and generations as /metrics served them', async () => {
    standIn = createMetricsStandIn(traffic);
    exposure = 'token';
    expectedErrors = [/status of 401/];
    const page = await openDashboard(`${server.url}/docs/dashboard`);
    const problem = page.locator('#problem');
    await expect.poll(() => problem.innerText()).toContain('metrics not exposed: set METRICS_TOKEN');
    expect(await problem.innerText()).toContain('401');

    await page.locator('#metrics-token').fill(token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect.poll(() => scrapesShown(page)).toBe('1');
    expect(await problem.isHidden()).toBe(true);
    expect(
      await page.evaluate(() => (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem('metricsToken')),
    ).toBe(token);
    // One scrape: the gauges, no rate yet.
    expect([
      await shown(page, 'requests'),
      await shown(page, 'stomp'),
      await shown(page, 'generations-running'),
      await shown(page, 'generations-waiting'),
    ]).toEqual(['–', '5', '1', '3']);

    await nextScrape(page);
    // 95 + 5 requests in 5 s; the 99th of 100 is 4/5 into the 250-500 ms bucket.
    expect([await shown(page, 'requests'), await shown(page, 'p99'), await shown(page, 'stomp')]).toEqual(['20.0', '450 ms', '7']);
    expect([await shown(page, 'generations-running'), await shown(page, 'generations-waiting')]).toEqual(['2', '2']);

    await nextScrape(page);
    // Twice the traffic; p99 over both windows (285 fast, 15 slow): the 297th, again 4/5 into 250-500 ms.
    expect([await shown(page, 'requests'), await shown(page, 'p99'), await shown(page, 'stomp')]).toEqual(['40.0', '450 ms', '9']);
    expect([await shown(page, 'generations-running'), await shown(page, 'generations-waiting')]).toEqual(['3', '1']);
    await nextScrape(page);

    for (const chart of ['requests', 'p99', 'stomp', 'generations']) expect(await page.locator(`#chart-${chart} canvas`).count(), chart).toBe(1);
    expect(await linePixels(page, 'requests', [0x09, 0x69, 0xda])).toBeGreaterThan(20);
    expect(await linePixels(page, 'stomp', [0x82, 0x50, 0xdf])).toBeGreaterThan(20);
    expect(await page.locator('#status').innerText()).toContain('4 scrapes of /metrics');
    await page.screenshot({ path: path.join(artifacts, 'dashboard.png'), fullPage: true });
  });

  it('says so when the instance does not expose /metrics (404), and draws nothing', async () => {
    standIn = createMetricsStandIn(traffic);
    exposure = 'not exposed';
    expectedErrors = [/status of 404/];
    const page = await openDashboard(`${server.url}/docs/dashboard`);
    await expect.poll(() => page.locator('#problem').innerText()).toContain('metrics not exposed: set METRICS_TOKEN on the server');
    await page.clock.runFor(intervalMs);
    await expect.poll(() => page.locator('main').getAttribute('data-problems')).toBe('2');
    expect([await scrapesShown(page), await shown(page, 'requests'), await shown(page, 'stomp')]).toEqual([null, '–', '–']);
    await page.screenshot({ path: path.join(artifacts, 'dashboard-not-exposed.png') });
  });

  it("draws the server's own /metrics: its STOMP connections, and the requests it answered", async () => {
    const real = await startTestServer({ METRICS_TOKEN: token });
    const { accessToken } = await real.signIn('dashboard-real@example.com');
    const stomp = await Promise.all([connectStomp(wsUrl(real.url), accessToken), connectStomp(wsUrl(real.url), accessToken)]);
    try {
      expectedErrors = [/status of 401/];
      const page = await openDashboard(`${real.url}/docs/dashboard`);
      await page.locator('#metrics-token').fill(token);
      await page.getByRole('button', { name: 'Use token' }).click();
      await expect.poll(() => scrapesShown(page)).toBe('1');
      expect(await shown(page, 'stomp')).toBe('2');
      for (let i = 0; i < 40; i++) expect((await real.request('GET', '/api/v1/trips', { token: accessToken })).status).toBe(200);
      await page.clock.runFor(intervalMs);
      await expect.poll(() => scrapesShown(page)).toBe('2');
      // At least the 40 list requests (and the page's own scrape) in the 5 s window.
      expect(Number(await shown(page, 'requests'))).toBeGreaterThanOrEqual(8);
      await page.screenshot({ path: path.join(artifacts, 'dashboard-real-metrics.png'), fullPage: true });
    } finally {
      await Promise.all(stomp.map((client) => client.disconnect()));
      await real.stop();
    }
  });

  describe('npm run dashboard', () => {
    let local: RunningDashboardServer;
    afterEach(() => local?.close());

    it('serves the same page on its own origin and fetches /metrics of the instance with the token it was given', async () => {
      standIn = createMetricsStandIn(traffic);
      exposure = 'token';
      expectedErrors = [];
      local = await startDashboardServer({ instance: new URL(server.url), token });
      const page = await openDashboard(local.url);
      await expect.poll(() => scrapesShown(page)).toBe('1');
      await nextScrape(page);
      expect([await shown(page, 'requests'), await shown(page, 'p99'), await shown(page, 'stomp')]).toEqual(['20.0', '450 ms', '7']);
      expect(await page.locator('h1').innerText()).toContain(new URL(server.url).origin);
      expect(await page.locator('nav').count()).toBe(0);
      await page.screenshot({ path: path.join(artifacts, 'dashboard-npm-run.png'), fullPage: true });
    });
  });
});

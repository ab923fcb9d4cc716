// The docs as a browser sees them: Debian's chromium, driven by playwright-core (which never
// downloads a browser), opens the landing page, Swagger UI and the AsyncAPI page of a real server
// on a free port. A console error, an uncaught page error or any request that leaves localhost
// fails the test. Screenshots go to .tmp/screenshots/ (test artefacts, git-ignored).
// Without /usr/bin/chromium these tests are skipped with a one-line reason; `.ci/run` installs it.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, launchHeadlessChromium } from '../support/headlessChromium.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { componentName, jsonAt, objectOrEmpty } from '../../conformance/specModel/index.js';
import { loadSpecDocuments } from '../../src/operational/specDocuments.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const haveChromium = chromiumAvailable('test/browser');

const screenshots = path.resolve(import.meta.dirname, '../../.tmp/screenshots');
/** Payloads that are plain text (the ERROR frame's body): nothing in them to expand. */
const { asyncapi } = loadSpecDocuments();
const textPayloads = new Set(
  Object.entries(objectOrEmpty(jsonAt(asyncapi, 'components', 'messages')))
    .filter(([, message]) => {
      const schema = componentName(jsonAt(message, 'payload', '$ref'), 'schemas');
      return schema !== null && jsonAt(asyncapi, 'components', 'schemas', schema, 'type') === 'string';
    })
    .map(([name]) => `message-${name}-payload`),
);
const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);

// A browser on a shared 2-core machine: generous timeouts; nothing here measures time.
describe.skipIf(!haveChromium)('the docs in a browser', { timeout: 90_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  /** console errors, page errors and requests that left localhost, for the current test */
  let problems: string[];

  beforeAll(async () => {
    fs.mkdirSync(screenshots, { recursive: true });
    server = await startTestServer();
    browser = await launchHeadlessChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openPage(address: string): Promise<Page> {
    problems = [];
    // Wider than 1536 px: the AsyncAPI component's full layout (sidebar, examples beside the schemas).
    context = await browser.newContext({ viewport: { width: 1680, height: 1000 } });
    // Fail a step with playwright's own message (what it waited for) before vitest's test timeout.
    context.setDefaultTimeout(30_000);
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (loopback.has(url.hostname)) return route.continue();
      problems.push(`request left localhost: ${url.href}`);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
    await page.goto(`${server.url}${address}`);
    return page;
  }

  afterEach(async () => {
    await context?.close();
    expect(problems).toEqual([]);
  });

  it('the landing page links Swagger UI, the AsyncAPI page, the playground, both specs and the probes, and each link answers', async () => {
    const page = await openPage('/');
    await expect.poll(() => page.locator('h1').innerText()).toContain('Trip Itinerary Service API');
    // The DOM's types are not in this project's lib: the one method used is named here.
    const hrefs = await page
      .locator('main a')
      .evaluateAll((links: { getAttribute(name: string): string | null }[]) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs).toEqual(['/docs', '/docs/asyncapi', '/docs/playground', '/openapi.yaml', '/asyncapi.yaml', '/healthz', '/readyz']);
    for (const href of hrefs) expect((await page.request.get(`${server.url}${href}`)).status(), href).toBe(200);
    await page.screenshot({ path: path.join(screenshots, 'landing.png'), fullPage: true });

    await page.locator('main').getByRole('link', { name: 'HTTP API (Swagger UI)' }).click();
    await page.waitForURL(`${server.url}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
  });

  it('/docs/ with a trailing slash reaches Swagger UI', async () => {
    const page = await openPage('/docs/');
    await page.waitForURL(`${server.url}/docs`);
    await expect.poll(() => page.locator('.swagger-ui .info .title').innerText()).toContain('Trip Itinerary Service API');
  });

  it('Swagger UI shows the address it was opened at as its server and links to the AsyncAPI page, which links back', async () => {
    const page = await openPage('/docs');
    const servers = page.locator('.swagger-ui .servers select');
    await servers.waitFor();
    expect(await servers.locator('option').allInnerTexts()).toEqual([`${server.url} - This server (the one serving these docs)`]);
    await page.locator('.swagger-ui .opblock').first().waitFor();
    await page.screenshot({ path: path.join(screenshots, 'swagger-ui.png'), fullPage: true });

    await page.locator('nav').getByRole('link', { name: 'Real-time API (AsyncAPI)' }).click();
    await page.waitForURL(`${server.url}/docs/asyncapi`);
    await page.locator('#messages').waitFor();
    await page.locator('nav').getByRole('link', { name: 'HTTP API (Swagger UI)' }).click();
    await page.waitForURL(`${server.url}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
  });

  it('"Try it out" on GET /api/v1/trips, authorised through the Authorize dialog, answers 200', async () => {
    const login = await fetch(`${server.url}/api/v1/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'browser@example.com' }),
    });
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
    const page = await openPage('/docs');

    await page.locator('.swagger-ui .auth-wrapper button.authorize').click();
    const dialog = page.locator('.swagger-ui .dialog-ux .modal-ux');
    await dialog.locator('input').fill(accessToken);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click(); // the dialog's "Authorize"
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator('.swagger-ui .auth-wrapper button.authorize.locked').waitFor();

    const operation = page.locator('#operations-Trips-listTripPlans');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status');
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toBe('200');
    expect(await operation.locator('.request-url pre').innerText()).toMatch(new RegExp(`^${server.url}/api/v1/trips\\?`));
    expect(await operation.locator('.live-responses-table .response-col_description pre').first().innerText()).toContain('"success": true');
    await operation.screenshot({ path: path.join(screenshots, 'swagger-ui-try-it-out.png') });
  });

  it('the AsyncAPI page shows the server at the address it was opened at and expandable message schemas', async () => {
    const page = await openPage('/docs/asyncapi');
    await page.locator('#messages').waitFor();
    const host = new URL(server.url).host;
    expect(await page.locator('#server-stomp').innerText()).toContain(`${host}/ws-stomp`);
    expect(await page.locator('#asyncapi').innerText()).not.toContain('localhost:8080');
    await page.screenshot({ path: path.join(screenshots, 'asyncapi.png') });

    const payloads = page.locator('#messages [id^="message-"][id$="-payload"]');
    expect(await payloads.count()).toBeGreaterThan(0);
    for (const payload of await payloads.all()) {
      if (textPayloads.has((await payload.getAttribute('id')) ?? '')) continue;
      const rows = () => payload.locator('span.break-anywhere').count();
      const before = await rows();
      await payload.getByRole('button', { name: 'Expand all' }).first().click();
      await expect.poll(rows, { message: (await payload.getAttribute('id')) ?? '' }).toBeGreaterThan(before);
    }
    const firstMessage = `#${(await payloads.first().getAttribute('id'))!.replace(/-payload$/, '')}`;
    await page.locator(firstMessage).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshots, 'asyncapi-message.png') });
  });
});

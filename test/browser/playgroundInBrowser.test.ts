// The sign-in of the docs pages and the playground as a person uses them, in Debian's chromium
// (playwright-core, headless) against a real server: dev-login on the landing page, the access
// token shown and copied, Swagger UI authorised with it on opening (a "Try it out" call answers
// with the signed-in member), and the playground signed in with the same tab's tokens. One browser
// for the file and one tab for the whole walk, as a person would: each step starts where the one
// before it ended. A console error, a page error or a request that leaves localhost fails the test.
// Screenshots go to .tmp/screenshots/. Without /usr/bin/chromium it is skipped with a one-line reason.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { chromiumAvailable, launchHeadlessChromium } from '../support/headlessChromium.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const haveChromium = chromiumAvailable('test/browser/playgroundInBrowser');
const screenshots = path.resolve(import.meta.dirname, '../../.tmp/screenshots');
const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);
const email = 'playground@example.com';
const signedInAs = `Signed in as playground (${email}, MEMBER).`;

// A browser on a shared 2-core machine: generous timeouts; nothing here measures time.
describe.skipIf(!haveChromium)('the docs pages and the playground in a browser, signed in with dev-login', { timeout: 90_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** console errors, page errors and requests that left localhost */
  const problems: string[] = [];
  const tabToken = async (name: 'accessToken' | 'refreshToken') => page.evaluate<string | null>(`sessionStorage.getItem(${JSON.stringify(name)})`);

  beforeAll(async () => {
    fs.mkdirSync(screenshots, { recursive: true });
    // The playground's script is the bundle of `npm run build`.
    await ensureFreshBuild();
    server = await startTestServer();
    browser = await launchHeadlessChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    context.setDefaultTimeout(30_000);
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (loopback.has(url.hostname)) return route.continue();
      problems.push(`request left localhost: ${url.href}`);
      return route.abort('blockedbyclient');
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    expect(problems).toEqual([]);
  });

  it('the landing page says dev-login is on, signs in with an e-mail, keeps both tokens for the tab, and shows and copies the access token', async () => {
    await page.goto(`${server.url}/`);
    expect(await page.locator('#dev-login-state').innerText()).toContain('Dev-login is on');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Sign in with e-mail' }).click();
    await expect.poll(() => page.locator('#sign-in-status').innerText()).toBe(signedInAs);
    expect(await page.locator('#dev-login').isHidden()).toBe(true);
    const accessToken = await tabToken('accessToken');
    expect((await server.request('GET', '/api/v1/members/me', { token: accessToken! })).status).toBe(200);
    expect(await tabToken('refreshToken')).toMatch(/\S/);

    await page.getByRole('button', { name: 'Show access token' }).click();
    expect(await page.locator('#access-token').innerText()).toBe(accessToken);
    await page.getByRole('button', { name: 'Copy access token' }).click();
    await expect.poll(() => page.locator('#copy-state').innerText()).toBe('Copied.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(accessToken);
    await page.screenshot({ path: path.join(screenshots, 'landing-signed-in.png'), fullPage: true });
  });

  it('Swagger UI opens authorised with the tab\'s access token, and "Try it out" sends it', async () => {
    await page.locator('nav').getByRole('link', { name: 'HTTP API (Swagger UI)' }).click();
    await page.waitForURL(`${server.url}/docs`);
    await page.locator('.swagger-ui .auth-wrapper button.authorize.locked').waitFor();
    await page.locator('.swagger-ui .auth-wrapper button.authorize').click();
    const dialog = page.locator('.swagger-ui .dialog-ux .modal-ux');
    expect(await dialog.innerText()).toContain('Authorized');
    await dialog.getByRole('button', { name: 'Close' }).click();

    const operation = page.locator('#operations-Members-getMe');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status');
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toBe('200');
    expect(await operation.locator('.live-responses-table .response-col_description pre').first().innerText()).toContain(email);
    expect(await operation.locator('.curl-command').innerText()).toContain(`Bearer ${await tabToken('accessToken')}`);
    await operation.screenshot({ path: path.join(screenshots, 'swagger-ui-authorised.png') });
  });

  it("the playground is signed in with the same tab's tokens and offers the regions of listRegions", async () => {
    await page.locator('nav').getByRole('link', { name: 'Playground' }).click();
    await page.waitForURL(`${server.url}/docs/playground`);
    await expect.poll(() => page.locator('#who').innerText()).toBe(signedInAs);
    expect(await page.locator('#dev-login').isHidden()).toBe(true);
    const regions = (await server.request<{ data: { regions: { name: string }[] } }>('GET', '/api/v1/regions')).body.data.regions.map((r) => r.name);
    await expect
      .poll(() => page.locator('select[name="region"] option').evaluateAll((options: { value: string }[]) => options.map((o) => o.value)))
      .toEqual(regions);
    expect(await page.getByRole('button', { name: 'Create the trip' }).isEnabled()).toBe(true);
    await page.screenshot({ path: path.join(screenshots, 'playground.png'), fullPage: true });
  });
});

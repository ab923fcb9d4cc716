// The OpenID Connect sign-in as a person does it, in Debian's chromium (playwright-core, headless):
// the landing page's "Sign in", the local provider's login and consent pages (oidc-provider,
// scripts/idp), back on the landing page signed in, then "Sign out" revokes the token. Nothing
// leaves 127.0.0.1 (the provider's development pages ask for a web font: blocked, and not held
// against the service); a console error, a page error or an outside request of the service's own
// page fails the test.
// Without /usr/bin/chromium it is skipped with a one-line reason; `.ci/run` installs it.
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchHeadlessChromium } from '../support/headlessChromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { startOidcHarness, type OidcHarness } from '../support/oidcHarness.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

const haveChromium = chromiumAvailable('test/browser/oidcSignInInBrowser');

// A browser on a shared 2-core machine: generous timeouts; nothing here measures time.
describe.skipIf(!haveChromium)('signing in with the identity provider in a browser', { timeout: 120_000 }, () => {
  let harness: OidcHarness;
  let t: TestApp;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    harness = await startOidcHarness();
    t = await startTestApp(harness.env);
    server = await startServer(t.app, harness.port);
    browser = await launchHeadlessChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.close();
    await harness?.stop();
  });

  it("Sign in on the landing page → the provider's login and consent → signed in; Sign out revokes the token", async () => {
    const problems: string[] = [];
    const context = await browser.newContext();
    context.setDefaultTimeout(30_000);
    const onServicePage = (url: string) => new URL(url).origin === harness.origin;
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      if (onServicePage(route.request().frame().url())) problems.push(`request left 127.0.0.1: ${url.href}`);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && onServicePage(page.url())) problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));

    await page.goto(`${harness.origin}/`);
    await page.getByRole('link', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.origin === harness.idp.issuer);
    await page.locator('input[name="login"]').fill('alice');
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL((url) => url.origin === harness.origin && url.pathname === '/');
    await expect.poll(() => page.locator('#sign-in-status').textContent(), { timeout: 30_000 }).toBe('Signed in as Alice Kim (alice@example.com, MEMBER).');
    // The one-time code left the address bar once used.
    expect(new URL(page.url()).hash).toBe('');
    const token = String(await page.evaluate('sessionStorage.getItem("accessToken")'));
    expect((await t.request('GET', '/api/v1/members/me', { token })).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.locator('#sign-in-status').textContent(), { timeout: 30_000 }).toBe('Signed out.');
    expect((await t.request('GET', '/api/v1/members/me', { token })).status).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });
});

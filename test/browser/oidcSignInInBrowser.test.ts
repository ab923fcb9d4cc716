// The OpenID Connect sign-in as a person does it, in Debian's chromium (playwright-core, headless):
// the landing page's "Sign in", the local provider's login and consent pages (oidc-provider,
// tools/idp), back on the landing page signed in, then "Sign out" revokes the token; and a link
// carrying the one-time code of someone else's sign-in signs nobody in (login CSRF). Nothing
// leaves 127.0.0.1 (the provider's development pages ask for a web font: blocked, and not held
// against the service); a console error, a page error or an outside request of the service's own
// page fails the test.
// Without /usr/bin/chromium it is skipped with a one-line reason; `.ci/run` installs it.
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchHeadlessChromium } from '../support/headlessChromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/composition/server.js';
import { startOidcHarness, type OidcHarness } from '../support/oidcHarness.js';
import { scriptedBrowser } from '../support/scriptedBrowser.js';
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

  it("Sign in on the landing page → the provider's login and consent → signed in, the playground too; Sign out revokes the token", async () => {
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
    const started = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/v1/auth/oidc/login');
    await page.getByRole('link', { name: 'Sign in' }).click();
    expect(new URL((await started).url()).searchParams.get('codeChallenge'), 'the page binds the code to a verifier it keeps').toMatch(/^[\w-]{43}$/);

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
    // The playground of the same tab is signed in with the tokens the provider's sign-in left.
    await page.goto(`${harness.origin}/docs/playground`);
    await expect.poll(() => page.locator('#who').textContent(), { timeout: 30_000 }).toBe('Signed in as Alice Kim (alice@example.com, MEMBER).');
    await page.goto(`${harness.origin}/`);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.locator('#sign-in-status').textContent(), { timeout: 30_000 }).toBe('Signed out.');
    expect((await t.request('GET', '/api/v1/members/me', { token })).status).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a link with the one-time code of the attacker's sign-in signs the victim in as nobody: ignored, or refused (AUTH029) while the victim's own sign-in is pending", async () => {
    const attackersCode = async () => {
      const attacker = scriptedBrowser(harness.origin, (pathAndQuery, init) => fetch(`${harness.origin}${pathAndQuery}`, { ...init, redirect: 'manual' }));
      const done = await attacker.open(await attacker.signInAtProvider('alice'));
      return new URLSearchParams(new URL(done.headers.get('location')!).hash.slice(1)).get('oidcCode')!;
    };
    const context = await browser.newContext();
    context.setDefaultTimeout(30_000);
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('blockedbyclient')));
    const page = await context.newPage();
    const status = () => page.locator('#sign-in-status').textContent();

    await page.goto(`${harness.origin}/#oidcCode=${await attackersCode()}`);
    await expect.poll(status, { timeout: 30_000 }).toBe('Ignored a sign-in code of a sign-in not started here.');
    expect(await page.evaluate('sessionStorage.getItem("accessToken")')).toBeNull();

    // The victim started a sign-in of their own (the page keeps its verifier), then follows the link.
    await page.goto(`${harness.origin}/`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === harness.idp.issuer);
    await page.goto(`${harness.origin}/#oidcCode=${await attackersCode()}`);
    await expect.poll(status, { timeout: 30_000 }).toMatch(/^Sign-in failed: AUTH029 /);
    expect(await page.evaluate('sessionStorage.getItem("accessToken")')).toBeNull();
    await context.close();
  });
});

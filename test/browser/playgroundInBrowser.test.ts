// The sign-in of the docs pages and the playground as a person uses them, in Debian's chromium
// (playwright-core, headless) against a real server: dev-login on the landing page, the access
// token shown and copied, Swagger UI authorised with it on opening (a "Try it out" call answers
// with the signed-in member), and the playground, signed in with the same tab's tokens, running
// the client package: a trip from the form whose days arrive one by one, a second run cancelled, a
// chat message answered, and a connection dropped in the middle of a third run that resumes with
// every day once. The planner is the offline one behind gates the test opens (gatedPlanner), so a
// run is "in the middle" when the test says, whatever the machine's speed.
// One browser for the file and one tab for the whole walk, as a person would: each step starts
// where the one before it ended. A console error, a page error or a request that leaves localhost
// fails the test. Screenshots go to .tmp/screenshots/. Without /usr/bin/chromium it is skipped
// with a one-line reason.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { chromiumAvailable, launchHeadlessChromium } from '../support/headlessChromium.js';
import { gatedPlanner, type GatedPlanner } from '../support/plannerStubs.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const haveChromium = chromiumAvailable('test/browser/playgroundInBrowser');
const screenshots = path.resolve(import.meta.dirname, '../../.tmp/screenshots');
const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);
const email = 'playground@example.com';
const signedInAs = `Signed in as playground (${email}, MEMBER).`;
/** expect.poll's wait: a reconnect takes a second (the client's delay), a step of a busy machine more. */
const eventually = { timeout: 20_000 };

// A browser on a shared 2-core machine: generous timeouts; nothing here measures time.
describe.skipIf(!haveChromium)('the docs pages and the playground in a browser, signed in with dev-login', { timeout: 90_000 }, () => {
  let server: TestServer;
  let planner: GatedPlanner;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** console errors, page errors and requests that left localhost */
  const problems: string[] = [];
  const servers: TestServer[] = [];
  const planners: GatedPlanner[] = [];
  const tabToken = async (name: 'accessToken' | 'refreshToken') => page.evaluate<string | null>(`sessionStorage.getItem(${JSON.stringify(name)})`);

  /** A real server whose planner is the offline one behind gates the test opens. */
  async function startGatedServer(env: Record<string, string> = {}): Promise<{ server: TestServer; planner: GatedPlanner }> {
    let offline!: Planner;
    const gated = gatedPlanner(() => offline);
    const started = await startTestServer(env, { planner: gated });
    offline = createOfflinePlanner({ db: started.app.services.db, delayMs: 0 });
    return { server: started, planner: gated };
  }

  /** A tab of the one browser context whose console errors and page errors are problems. */
  async function newTab(): Promise<Page> {
    const tab = await context.newPage();
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error on ${tab.url()}: ${message.text()}`);
    });
    tab.on('pageerror', (error) => problems.push(`page error on ${tab.url()}: ${error.message}`));
    return tab;
  }

  beforeAll(async () => {
    fs.mkdirSync(screenshots, { recursive: true });
    // The playground's script is the bundle of `npm run build`.
    await ensureFreshBuild();
    ({ server, planner } = await startGatedServer());
    servers.push(server);
    planners.push(planner);
    browser = await launchHeadlessChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    context.setDefaultTimeout(30_000);
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (loopback.has(url.hostname)) return route.continue();
      problems.push(`request left localhost: ${url.href}`);
      return route.abort('blockedbyclient');
    });
    page = await newTab();
  }, 180_000);

  afterAll(async () => {
    // A step that failed midway must not leave a run holding its generation slot.
    for (const gated of planners) for (const tripPlanId of gated.started) gated.finish(tripPlanId);
    await browser?.close();
    await Promise.all(servers.map((running) => running.stop()));
    expect(problems).toEqual([]);
  });

  it('the landing page says dev-login is on, signs in with an e-mail, keeps both tokens for the tab, and shows and copies the access token', async () => {
    await page.goto(`${server.url}/`);
    expect(await page.locator('#dev-login-state').innerText()).toContain('Dev-login is on');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Sign in with e-mail' }).click();
    await expect.poll(() => page.locator('#sign-in-status').innerText(), eventually).toBe(signedInAs);
    expect(await page.locator('#dev-login').isHidden()).toBe(true);
    const accessToken = await tabToken('accessToken');
    expect((await server.request('GET', '/api/v1/members/me', { token: accessToken! })).status).toBe(200);
    expect(await tabToken('refreshToken')).toMatch(/\S/);

    await page.getByRole('button', { name: 'Show access token' }).click();
    expect(await page.locator('#access-token').innerText()).toBe(accessToken);
    await page.getByRole('button', { name: 'Copy access token' }).click();
    await expect.poll(() => page.locator('#copy-state').innerText(), eventually).toBe('Copied.');
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
    await expect.poll(() => status.innerText(), eventually).toBe('200');
    expect(await operation.locator('.live-responses-table .response-col_description pre').first().innerText()).toContain(email);
    expect(await operation.locator('.curl-command').innerText()).toContain(`Bearer ${await tabToken('accessToken')}`);
    await operation.screenshot({ path: path.join(screenshots, 'swagger-ui-authorised.png') });
  });

  it("the playground is signed in with the same tab's tokens and offers the regions of listRegions", async () => {
    await page.locator('nav').getByRole('link', { name: 'Playground' }).click();
    await page.waitForURL(`${server.url}/docs/playground`);
    await expect.poll(() => page.locator('#who').innerText(), eventually).toBe(signedInAs);
    expect(await page.locator('#dev-login').isHidden()).toBe(true);
    const regions = (await server.request<{ data: { regions: { name: string }[] } }>('GET', '/api/v1/regions')).body.data.regions.map((r) => r.name);
    await expect
      .poll(() => page.locator('select[name="region"] option').evaluateAll((options: { value: string }[]) => options.map((o) => o.value)))
      .toEqual(regions);
    expect(await page.getByRole('button', { name: 'Create the trip' }).isEnabled()).toBe(true);
    await page.screenshot({ path: path.join(screenshots, 'playground.png'), fullPage: true });
  });

  const days = () => page.locator('#days > li');
  const dayNumbers = () =>
    days().evaluateAll((items: { dataset: Record<string, string | undefined> }[]) => items.map((item) => Number(item.dataset.dayNumber)));
  const dayMessages = async () => Number((await page.locator('#days').getAttribute('data-received')) ?? '0');
  const runStatus = () => page.locator('#run-status').innerText();

  /** Fills the form for `duration` days in Busan, submits it, and answers the id of the run the planner then holds before its first day. */
  async function startTrip(duration: number): Promise<number> {
    await page.locator('select[name="region"]').selectOption('Busan');
    await page.locator('input[name="duration"]').fill(String(duration));
    const runs = planner.started.length;
    await page.getByRole('button', { name: 'Create the trip and generate' }).click();
    await planner.waitForStarts(runs + 1);
    return planner.started[runs]!;
  }

  /** Lets the run produce one more day and waits until the page shows it. */
  async function nextDay(tripPlanId: number, shown: number): Promise<void> {
    planner.step(tripPlanId);
    await expect.poll(dayNumbers, eventually).toEqual(Array.from({ length: shown }, (_, i) => i + 1));
  }

  it('creates a trip from the form and shows each day as it arrives, the summaries on the chat, then the completion', async () => {
    const tripPlanId = await startTrip(3);
    await expect.poll(runStatus, eventually).toBe('Generating: 0 of 3 days.');
    for (let day = 1; day <= 3; day++) {
      await nextDay(tripPlanId, day);
      expect(await runStatus()).toBe(`Generating: ${day} of 3 days.`);
    }
    planner.step(tripPlanId);
    await expect.poll(runStatus, eventually).toBe('Completed: 3 days.');
    expect(await dayMessages()).toBe(3);
    const saved = (
      await server.request<{ data: { dayNumber: number; title: string }[] }>('GET', `/api/v1/trips/daily-plans/${tripPlanId}`, {
        token: (await tabToken('accessToken'))!,
      })
    ).body.data;
    expect(await days().locator('h3').allInnerTexts()).toEqual(saved.map((day) => expect.stringContaining(day.title) as unknown as string));
    // One summary per day, each streamed then complete, and the run's end.
    await expect.poll(() => page.locator('#chat-log li.chat-planner.complete').count(), eventually).toBe(3);
    expect(await page.locator('#chat-log li.chat-event').last().innerText()).toMatch(/^event: COMPLETED/);
    await page.screenshot({ path: path.join(screenshots, 'playground-completed.png'), fullPage: true });
  });

  it('cancels a second run in its middle: the run ends cancelled with the days it had', async () => {
    const tripPlanId = await startTrip(3);
    await nextDay(tripPlanId, 1);
    await page.getByRole('button', { name: 'Cancel the run' }).click();
    await expect.poll(runStatus, eventually).toBe('Cancelled after 1 day.');
    const plan = await server.request<{ data: { generationStatus: string } }>('GET', `/api/v1/trips/${tripPlanId}`, {
      token: (await tabToken('accessToken'))!,
    });
    expect(plan.body.data.generationStatus).toBe('CANCELLED');
    expect(await page.locator('#chat-log li.chat-event').last().innerText()).toMatch(/^event: CANCELLED/);
    await page.screenshot({ path: path.join(screenshots, 'playground-cancelled.png'), fullPage: true });
  });

  it("sends a chat message once the run ended and shows the planner's answer", async () => {
    const chat = page.locator('#chat-form');
    await chat.getByLabel('Message').fill('hello');
    await chat.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#chat-log li.chat-you').last().innerText(), eventually).toBe('you: hello');
    await expect.poll(() => page.locator('#chat-log li.chat-planner.complete').last().innerText(), eventually).toContain('I can change the itinerary for you.');
    await page.locator('#chat').screenshot({ path: path.join(screenshots, 'playground-chat.png') });
  });

  it('drops the connection in the middle of a third run: the client resumes after the last message seen and every day arrives once', async () => {
    const tripPlanId = await startTrip(3);
    await nextDay(tripPlanId, 1);
    await page.getByRole('button', { name: 'Drop the connection' }).click();
    await expect.poll(() => page.locator('#connection-log li.dropped').count(), eventually).toBeGreaterThan(0);
    // Day 2 is saved and published while the page may still be away; the resume must bring it, once.
    planner.step(tripPlanId);
    await planner.paused(tripPlanId);
    await expect.poll(() => page.locator('#connection-log li.recovered').count(), eventually).toBeGreaterThan(0);
    const resumed = await page.locator('#connection-log li.resume').allInnerTexts();
    // Resumed after the last message seen: its position, epoch:offset.
    expect(resumed.some((line) => new RegExp(`/user/sub/schedule/${tripPlanId} with x-since: [^\\s:]+:\\d+ `).test(line))).toBe(true);
    await expect.poll(dayNumbers, eventually).toEqual([1, 2]);
    planner.finish(tripPlanId);
    await expect.poll(runStatus, eventually).toBe('Completed: 3 days.');
    expect(await dayNumbers()).toEqual([1, 2, 3]);
    expect(await dayMessages()).toBe(3);
    expect(await page.locator('#connection-log li.lost').count()).toBe(0);
    await page.screenshot({ path: path.join(screenshots, 'playground-resumed.png'), fullPage: true });
  });

  it('a resume the server cannot recover: the page says continuity was lost and shows the days and the chat as saved', async () => {
    // Another server whose logs keep one message: what a dropped page misses is gone from its
    // history. A new tab on it (its own origin: nobody signed in there) signs in on the playground.
    const lossy = await startGatedServer({ REALTIME_HISTORY_SIZE: '1' });
    servers.push(lossy.server);
    planners.push(lossy.planner);
    ({ server, planner } = lossy);
    page = await newTab();
    // The page's WebSocket goes through the test, which lets it reach the server or closes it at once.
    let reachable = true;
    await page.routeWebSocket(/\/ws-stomp$/, (socket) => (reachable ? void socket.connectToServer() : socket.close()));
    await page.goto(`${server.url}/docs/playground`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Sign in with e-mail' }).click();
    await expect.poll(() => page.locator('#who').innerText(), eventually).toBe(signedInAs);

    const tripPlanId = await startTrip(3);
    await nextDay(tripPlanId, 1);
    reachable = false;
    await page.getByRole('button', { name: 'Drop the connection' }).click();
    // Days 2 and 3 are saved and published while the page cannot reconnect.
    for (const held of [2, 3]) {
      planner.step(tripPlanId);
      expect(await planner.paused(tripPlanId)).toBe(held);
    }
    reachable = true;
    await expect.poll(() => page.locator('#connection-log li.lost').count(), eventually).toBeGreaterThan(0);
    expect(await page.locator('#connection-log').innerText()).toMatch(/x-recovered: false: continuity lost on \/user\/sub\/schedule\//);
    // The days come from the saved state the client read again (listDailyPlans), not from messages.
    await expect.poll(dayNumbers, eventually).toEqual([1, 2, 3]);
    expect(await dayMessages()).toBe(1);
    // And the chat as saved (listChatMessages): the three days' summaries.
    await expect.poll(() => page.locator('#chat-log li.chat-planner.complete').count(), eventually).toBe(3);
    planner.finish(tripPlanId);
    await expect.poll(runStatus, eventually).toBe('Completed: 3 days.');
    await page.screenshot({ path: path.join(screenshots, 'playground-continuity-lost.png'), fullPage: true });
  });
});

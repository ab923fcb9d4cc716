// `npm run dashboard`'s server without a browser: its /metrics is the instance's, fetched with the
// token it was started with (or the page's own, when the person pasted one), and a clear 502 when
// the instance cannot be reached. What the page does with it is in test/browser/dashboardInBrowser.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsUrlOf, startDashboardServer, type RunningDashboardServer } from '../../../tools/dashboard/dashboardServer.js';

/** An instance whose /metrics answers with what it was asked with, so the test sees what arrived. */
let instance: http.Server;
let instanceUrl: URL;
const servers: RunningDashboardServer[] = [];

beforeAll(async () => {
  instance = http.createServer((request, response) => {
    if (request.url !== '/metrics') return response.writeHead(404).end();
    if (!request.headers.authorization) return response.writeHead(401, { 'content-type': 'text/plain' }).end('token required');
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    response.end(`# TYPE seen_authorization gauge\nseen_authorization{value="${request.headers.authorization}"} 1\n`);
  });
  await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve));
  instanceUrl = new URL(`http://127.0.0.1:${(instance.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await new Promise((resolve) => instance.close(resolve));
});

async function dashboardFor(options: { instance: URL; token?: string }): Promise<string> {
  const server = await startDashboardServer(options);
  servers.push(server);
  return new URL(server.url).origin;
}

describe('npm run dashboard', () => {
  it('reads /metrics under the URL it is given, or the URL itself when it names /metrics', () => {
    expect(metricsUrlOf(new URL('http://10.0.0.5:8080')).href).toBe('http://10.0.0.5:8080/metrics');
    expect(metricsUrlOf(new URL('http://10.0.0.5:8080/trips/')).href).toBe('http://10.0.0.5:8080/trips/metrics');
    expect(metricsUrlOf(new URL('https://ops.example/a/metrics')).href).toBe('https://ops.example/a/metrics');
  });

  it('serves the page and passes /metrics on with the token it was started with, or the one the page sent', async () => {
    const origin = await dashboardFor({ instance: instanceUrl, token: 'from-the-command-line' });
    const page = await fetch(`${origin}/docs/dashboard`);
    expect([page.status, await page.text()]).toEqual([200, expect.stringContaining(`of ${instanceUrl.origin}, from /metrics`)]);
    const root = await fetch(`${origin}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/docs/dashboard']);

    const scraped = await fetch(`${origin}/metrics`);
    expect([scraped.status, scraped.headers.get('content-type')]).toEqual([200, 'text/plain; version=0.0.4; charset=utf-8']);
    expect(await scraped.text()).toContain('seen_authorization{value="Bearer from-the-command-line"} 1');
    const withPagesToken = await fetch(`${origin}/metrics`, { headers: { authorization: 'Bearer pasted-in-the-page' } });
    expect(await withPagesToken.text()).toContain('seen_authorization{value="Bearer pasted-in-the-page"} 1');
  });

  it("passes the instance's refusal on as it is, so the page can ask for the token", async () => {
    const origin = await dashboardFor({ instance: instanceUrl });
    const refused = await fetch(`${origin}/metrics`);
    expect([refused.status, await refused.text()]).toEqual([401, 'token required']);
  });

  it('answers 502 naming the address when the instance cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const origin = await dashboardFor({ instance: new URL(`http://127.0.0.1:${port}`) });
    const answer = await fetch(`${origin}/metrics`);
    expect([answer.status, await answer.text()]).toEqual([502, expect.stringContaining(`npm run dashboard cannot reach http://127.0.0.1:${port}/metrics`)]);
  });
});

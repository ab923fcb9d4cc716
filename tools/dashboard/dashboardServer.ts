// `npm run dashboard`'s server: the dashboard page of /docs/dashboard, served on this machine, with
// /metrics answered by the instance it is pointed at (the page scrapes its own origin). For an
// instance whose /docs is not reachable from the person's browser, or an older one without the page.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { dashboardPath, registerDashboardAssets, renderDashboardPage } from '../../src/index.js';

export interface DashboardServerOptions {
  /** the instance: its base URL (`/metrics` is added) or its metrics URL */
  instance: URL;
  /** METRICS_TOKEN of the instance, sent when the page sends none of its own */
  token?: string;
  port?: number;
  hostname?: string;
}

export interface RunningDashboardServer {
  /** the page to open */
  url: string;
  close(): Promise<void>;
}

/** The instance's metrics address: as given when it ends in /metrics, else /metrics under it. */
export function metricsUrlOf(instance: URL): URL {
  if (instance.pathname.endsWith('/metrics')) return new URL(instance.href);
  return new URL(`${instance.pathname.replace(/\/*$/, '')}/metrics`, instance);
}

export function createDashboardApp({ instance, token }: Pick<DashboardServerOptions, 'instance' | 'token'>): Hono {
  const metricsUrl = metricsUrlOf(instance);
  const app = new Hono();
  const page = renderDashboardPage({ source: metricsUrl.origin, withNavBar: false });
  app.get('/', (c) => c.redirect(dashboardPath));
  app.get(dashboardPath, (c) => c.html(page));
  registerDashboardAssets(app);
  app.get('/metrics', async (c) => {
    const authorization = c.req.header('authorization') ?? (token ? `Bearer ${token}` : undefined);
    try {
      const answer = await fetch(metricsUrl, { headers: authorization ? { authorization } : {}, signal: AbortSignal.timeout(10_000) });
      const type = answer.headers.get('content-type');
      return c.body(await answer.arrayBuffer(), answer.status as 200, { ...(type ? { 'content-type': type } : {}), 'cache-control': 'no-store' });
    } catch (error) {
      // fetch's own message is "fetch failed"; the cause says why (ECONNREFUSED, a DNS failure, the timeout).
      const reason =
        error instanceof Error ? [error.message, error.cause instanceof Error ? error.cause.message : ''].filter(Boolean).join(': ') : String(error);
      return c.text(`npm run dashboard cannot reach ${metricsUrl.href}: ${reason}`, 502);
    }
  });
  return app;
}

export function startDashboardServer(options: DashboardServerOptions): Promise<RunningDashboardServer> {
  const { port = 0, hostname = '127.0.0.1' } = options;
  const app = createDashboardApp(options);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      resolve({
        url: `http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${info.port}${dashboardPath}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // The page's keep-alive connection would hold close() open.
            (server as import('node:http').Server).closeAllConnections?.();
          }),
      });
    });
    server.once('error', reject);
  });
}

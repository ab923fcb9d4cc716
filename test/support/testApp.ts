// An in-process app on an in-memory database with a controllable clock and strict response
// validation, plus a small HTTP client for tests. Fixtures go through the public API where cheap.
// Tests replace what production lets them replace, the app's ports (planner, chat agent, broker,
// logger, event bus); a deliberately broken variant is a small app in front of the real one.
import type { Hono } from 'hono';
import type { HttpEnv } from '../../src/http/httpEnv.js';
import { routeFor } from '../../src/http/operationRouter.js';
import { createApp, type App, type AppPorts } from '../../src/composition/app.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { openDatabasePort } from '../../src/composition/openDatabase.js';
import { testAppDatabase } from './testDatabase.js';

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** parsed JSON when the response is JSON, else the text ('' when empty) */
  body: T;
  text: string;
  operationId: string | null;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** sent as is, without JSON encoding */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
}

export interface TestApp {
  app: App;
  /** what requests go to: app.hono, or the front given in the options */
  http: Hono<HttpEnv>;
  config: Config;
  now(): number;
  advance(ms: number): void;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  signIn(email: string, name?: string): Promise<{ accessToken: string; refreshToken: string }>;
  signInAdmin(email: string): Promise<{ accessToken: string; refreshToken: string }>;
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: ':memory:',
    RESPONSE_VALIDATION: 'strict',
    AUTH_DEV_LOGIN: 'true',
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...env,
  });
}

export type ResponseObserver = (operationId: string | null, response: TestResponse) => void;

export interface TestAppOptions extends Partial<AppPorts> {
  /** sees every response of request() */
  observe?: ResponseObserver;
  /** an app in front of the real one that requests go to instead (it answers some paths itself and forwards the rest) */
  front?: (app: App) => Hono<HttpEnv>;
}

export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  let now = Date.parse('2026-11-22T09:00:00Z');
  // A test that names its database (a SQLite file) gets it; the others get one of the test engine.
  const database = env.DATABASE_URL === undefined ? await testAppDatabase() : null;
  const config = testConfig(database ? { ...env, DATABASE_URL: database.url } : env);
  const { observe, front, ...ports } = options;
  const app = await createApp(config, await openDatabasePort(config.database), { clock: () => now, ...ports });
  const http = front ? front(app) : app.hono;

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const query = opts.query ? `?${new URLSearchParams(Object.entries(opts.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';
    const res = await http.request(`${path}${query}`, { method, headers, body });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    const response: TestResponse<T> = {
      status: res.status,
      headers: res.headers,
      body: (isJson && text ? JSON.parse(text) : text) as T,
      text,
      operationId: routeFor(method, path)?.operationId ?? null,
    };
    observe?.(response.operationId, response);
    return response;
  }

  async function signIn(email: string, name?: string) {
    const res = await request<{ data: { accessToken: string; refreshToken: string } }>('POST', '/api/v1/auth/dev-login', {
      body: name ? { email, name } : { email },
    });
    if (res.status !== 200) throw new Error(`dev-login failed: ${res.status} ${res.text}`);
    return res.body.data;
  }

  return {
    app,
    http,
    config,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    request,
    signIn,
    // There is no public API for granting ADMIN; this is what `npm run token -- --admin` does.
    signInAdmin: async (email) => (await app.services.auth.signIn({ email, provider: 'DEV', role: 'ADMIN' })).tokens,
    close: () => app.close().finally(() => database?.drop()),
  };
}

export const busanTrip = {
  themes: ['FAMOUS_SPOT', 'RESTAURANT'],
  startDate: '2026-12-24',
  duration: 3,
  region: 'Busan',
  peopleCount: 2,
  transportation: 'PUBLIC_TRANSIT',
};

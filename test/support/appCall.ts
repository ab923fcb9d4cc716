// JSON calls to an app built with createApp in the test process (no socket): status and the
// envelope's data, for suites that start several instances on one database.
import type { App } from '../../src/composition/app.js';

export type AppCall = <T = unknown>(method: string, path: string, token?: string, body?: unknown) => Promise<{ status: number; data: T }>;

export function appCall(app: App): AppCall {
  return async <T = unknown>(method: string, path: string, token?: string, body?: unknown) => {
    const res = await app.hono.request(path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, data: ((await res.json()) as { data: T }).data };
  };
}

// 429 and 503 from the real server are tried again, a bounded number of times, after what
// Retry-After says (capped by maxDelayMs), and the wait ends with the call's AbortSignal. The
// server's own refusals: its rate limit (RATE_LIMIT_PER_MINUTE), and the connection caps
// (MAX_CONNECTIONS_PER_ADDRESS: 429, MAX_CONNECTIONS: 503), filled by a connection the test holds
// and lets go when the client is told of its retry.
import { afterEach, describe, expect, it } from 'vitest';
import type { RetryEvent } from '../../client/src/index.js';
import { retryAfterMs, retryDelayMs } from '../../client/src/http/retryDelay.js';
import { getFrom, holdConnection, type HeldConnection } from '../support/rawConnections.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { watchedClient } from './httpTestClient.js';

const servers: TestServer[] = [];
const held: HeldConnection[] = [];
afterEach(async () => {
  for (const connection of held.splice(0)) connection.socket.destroy();
  for (const s of servers.splice(0)) await s.stop();
});

async function server(env: Record<string, string>): Promise<TestServer> {
  const s = await startTestServer(env);
  servers.push(s);
  return s;
}

/** A connection from 127.0.0.1 the server has counted (a probe from another address answered after it). */
async function holdOne(s: TestServer): Promise<HeldConnection> {
  const connection = await holdConnection(s.server.port, '127.0.0.1');
  held.push(connection);
  await getFrom(s.server.port, '/healthz', '127.0.0.3');
  return connection;
}

const regions = '/api/v1/regions';

describe('retries of 429 and 503', () => {
  it('a 429 of the rate limit is tried again up to `attempts`, each wait Retry-After capped by maxDelayMs, then returned as a Result', async () => {
    const s = await server({ RATE_LIMIT_PER_MINUTE: '1' });
    const retries: RetryEvent[] = [];
    const { client, sent } = watchedClient(s.url, { retry: { attempts: 3, maxDelayMs: 20, onRetry: (event) => retries.push(event) } });
    expect((await client.operations.listRegions()).ok).toBe(true);

    const limited = await client.operations.listRegions();
    expect(limited).toMatchObject({ ok: false, status: 429, error: { code: 'COMMON429' } });
    expect(sent.map((r) => r.status)).toEqual([200, 429, 429, 429]);
    expect(retries.map((r) => [r.operationId, r.attempt, r.status, r.delayMs])).toEqual([
      ['listRegions', 1, 429, 20],
      ['listRegions', 2, 429, 20],
    ]);
    expect(Number(retries[0]!.retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('waits what Retry-After says when it is under the cap, and an abort ends the wait: the call rejects and nothing more is sent', async () => {
    const s = await server({ RATE_LIMIT_PER_MINUTE: '1' });
    const abort = new AbortController();
    const retries: RetryEvent[] = [];
    const onRetry = (event: RetryEvent) => {
      retries.push(event);
      abort.abort(new Error('the user left the page'));
    };
    const { client, sent } = watchedClient(s.url, { retry: { maxDelayMs: 120_000, onRetry } });
    await client.operations.listRegions();

    await expect(client.operations.listRegions({ signal: abort.signal })).rejects.toThrow('the user left the page');
    expect(retries).toHaveLength(1);
    expect(retries[0]!.delayMs).toBe(Number(retries[0]!.retryAfter) * 1000);
    expect(sent.map((r) => r.status)).toEqual([200, 429]);
  });

  const capRefusals: [status: number, cap: string, env: Record<string, string>][] = [
    [429, 'per-address connection cap', { MAX_CONNECTIONS_PER_ADDRESS: '1' }],
    [503, 'instance connection cap', { MAX_CONNECTIONS: '1' }],
  ];
  it.each(capRefusals)('a %i of the %s is tried again after the connection in the way closes, and succeeds', async (status, _cap, env) => {
    const s = await server(env);
    const connection = await holdOne(s);
    const retries: RetryEvent[] = [];
    const onRetry = (event: RetryEvent) => {
      retries.push(event);
      connection.socket.destroy();
    };
    const { client, sent } = watchedClient(s.url, { retry: { maxDelayMs: 500, onRetry } });

    const answer = await client.operations.listRegions();
    expect([answer.ok, answer.status]).toEqual([true, 200]);
    expect(sent.map((r) => `${r.target} ${r.status}`)).toEqual([`${regions} ${status}`, `${regions} 200`]);
    expect(retries.map((r) => [r.status, r.retryAfter, r.delayMs])).toEqual([[status, '5', 500]]);
  });

  it('a 503 that lasts is returned as a Result with its code after the default 3 attempts', async () => {
    const s = await server({ MAX_CONNECTIONS: '1' });
    await holdOne(s);
    const { client, sent } = watchedClient(s.url, { retry: { maxDelayMs: 10 } });
    expect(await client.operations.listRegions()).toMatchObject({ ok: false, status: 503, error: { code: 'COMMON503' } });
    expect(sent.map((r) => r.status)).toEqual([503, 503, 503]);
  });
});

describe('the wait before a retry', () => {
  const now = Date.parse('2026-11-22T09:00:00Z');

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 08:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('is Retry-After capped by maxDelayMs, else a backoff that doubles', () => {
    expect(retryDelayMs(1, '2', 10_000, now)).toBe(2000);
    expect(retryDelayMs(1, 'Sun, 22 Nov 2026 10:00:00 GMT', 10_000, now)).toBe(10_000);
    expect([1, 2, 3, 8].map((retry) => retryDelayMs(retry, null, 10_000, now))).toEqual([250, 500, 1000, 10_000]);
  });
});

// The rate limit counts per client: the connecting address by default, and behind TRUST_PROXY_HOPS
// proxies the address the outermost trusted proxy wrote into X-Forwarded-For.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/testServer.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function statusOf(forwardedFor?: string): Promise<number> {
  const response = await fetch(`${server!.url}/healthz`, { headers: forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {} });
  await response.arrayBuffer();
  return response.status;
}

describe('client address of the rate limit', () => {
  it('without trusted proxies, X-Forwarded-For does not let a client escape its limit', async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '2' });
    expect([await statusOf('198.51.100.1'), await statusOf('198.51.100.2'), await statusOf('198.51.100.3')]).toEqual([200, 200, 429]);
  });

  it('behind one proxy, clients that proxy forwards are counted apart', async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY_HOPS: '1' });
    expect([await statusOf('198.51.100.1'), await statusOf('198.51.100.1'), await statusOf('198.51.100.1')]).toEqual([200, 200, 429]);
    expect(await statusOf('198.51.100.2')).toBe(200);
  });

  it('behind one proxy, what the client wrote left of the proxy entry is not trusted', async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY_HOPS: '1' });
    // The proxy appends the address it saw (203.0.113.7); the spoofed entries before it change nothing.
    const statuses = [];
    for (const spoofed of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) statuses.push(await statusOf(`${spoofed}, 203.0.113.7`));
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('behind two proxies, the client is the address the outer proxy saw', async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY_HOPS: '2' });
    expect(await statusOf('spoofed, 198.51.100.9, 192.0.2.1')).toBe(200);
    expect(await statusOf('other, 198.51.100.9, 192.0.2.2')).toBe(429);
    expect(await statusOf('spoofed, 198.51.100.10, 192.0.2.1')).toBe(200);
  });

  it('a request that bypassed the proxy (no X-Forwarded-For) counts under the connecting address', async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY_HOPS: '1' });
    expect([await statusOf(), await statusOf()]).toEqual([200, 429]);
    expect(await statusOf('198.51.100.1')).toBe(200);
  });
});

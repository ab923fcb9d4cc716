// An access token that expires while requests are under way: the server answers each 401 AUTH002,
// the client reissues once with its refresh token (reissueToken), however many requests were refused
// at once, tells onTokens, and replays each request with the new token. The server's clock is the
// test's (an access token lives an hour).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OperationFailedError } from '../../client/src/index.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { signedInClient } from './httpTestClient.js';

const HOUR_MS = 3_600_000;
const isReissue = (r: { target: string }) => r.target === '/api/v1/auth/reissue';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.stop());

describe('reissue on an expired access token', () => {
  it('N parallel requests refused as expired cause exactly one reissue, and all of them succeed', async () => {
    const { client, sent, issued } = await signedInClient(server, 'parallel@example.com');
    const first = issued[0]!;
    server.advance(2 * HOUR_MS);

    const results = await Promise.all([
      client.operations.getMe(),
      client.operations.getMyName(),
      client.operations.listTripPlans({ query: { size: 5 } }),
      client.operations.getMe(),
      client.operations.listTripPlans(),
    ]);

    expect(results.map((r) => [r.ok, r.status])).toEqual(Array.from({ length: 5 }, () => [true, 200]));
    expect(sent.filter(isReissue).map((r) => r.status)).toEqual([200]);
    expect(sent.filter((r) => r.status === 401)).toHaveLength(5);
    expect(issued).toHaveLength(2);
    expect(issued[1]!.accessToken).not.toBe(first.accessToken);
    expect(issued[1]!.refreshToken).not.toBe(first.refreshToken);
    expect(await client.accessToken()).toBe(issued[1]!.accessToken);
  });

  it('a request whose 401 arrives after another request already reissued replays with that token, without a reissue of its own', async () => {
    // The late request's answer (the server's 401) is handed to the client only once the other request is done, reissue and replay included.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (new Headers(init?.headers).get('x-request-id') === 'late') await released;
      return response;
    };
    const { client, sent } = await signedInClient(server, 'late@example.com', { fetch: held });
    server.advance(2 * HOUR_MS);

    const late = client.operations.getMe({ headers: { 'X-Request-Id': 'late' } });
    const early = await client.operations.getMyName();
    expect(sent.filter(isReissue)).toHaveLength(1);
    release();
    expect([early.status, (await late).status]).toEqual([200, 200]);
    expect(sent.filter((r) => r.target === '/api/v1/members/me').map((r) => r.status)).toEqual([401, 200]);
    expect(sent.filter(isReissue)).toHaveLength(1);
  });

  it('concurrent reissue() calls share one reissueToken request', async () => {
    const { client, sent } = await signedInClient(server, 'shared@example.com');
    const tokens = await Promise.all([client.reissue(), client.reissue(), client.reissue()]);
    expect(new Set(tokens).size).toBe(1);
    expect(sent.filter(isReissue)).toHaveLength(1);
  });

  it('a refused reissue leaves the request with its 401 AUTH002, and reissue() rejects with the AUTH004', async () => {
    const { client, sent } = await signedInClient(server, 'refused@example.com');
    const accessToken = await client.accessToken();
    client.setTokens({ accessToken, refreshToken: 'not-a-refresh-token' });
    server.advance(2 * HOUR_MS);

    const me = await client.operations.getMe();
    expect(me).toMatchObject({ ok: false, status: 401, error: { code: 'AUTH002' } });
    expect(sent.filter(isReissue).map((r) => r.status)).toEqual([401]);

    const rejection = await client.reissue().catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(OperationFailedError);
    expect((rejection as OperationFailedError).result).toMatchObject({ status: 401, error: { code: 'AUTH004' } });
  });

  it('does not reissue for a token that is invalid rather than expired (AUTH001)', async () => {
    const { client, sent } = await signedInClient(server, 'invalid@example.com');
    client.setTokens({ accessToken: 'not-a-token', refreshToken: 'whatever' });
    expect(await client.operations.getMe()).toMatchObject({ ok: false, status: 401, error: { code: 'AUTH001' } });
    expect(sent.filter(isReissue)).toHaveLength(0);
  });
});

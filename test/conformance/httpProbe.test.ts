// The runner waits out a rate limit (429 with a short Retry-After) instead of reporting the server,
// checks a redirect as the answer it is instead of following it, and reads a header as the type its
// schema gives before validating it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerValue } from '../../conformance/runner/headerValues.js';
import { send } from '../../conformance/runner/httpProbe.js';

let server: http.Server;
let baseUrl: string;
let hits = 0;
let retryAfter = '1';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/redirect') {
      // Where the mock's sign-in example points: a host nobody here can reach.
      res.writeHead(302, { location: 'https://accounts.example.invalid/authorize' });
      res.end();
      return;
    }
    hits++;
    if (hits === 1) {
      res.writeHead(429, { 'retry-after': retryAfter, 'content-type': 'application/json' });
      res.end('{}');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('send', () => {
  it('retries after Retry-After seconds when rate limited', async () => {
    hits = 0;
    const response = await send({ baseUrl, timeoutMs: 5000 }, { operationId: 'getHealth', method: 'GET', path: '/healthz' });
    expect([response.status, response.json, hits]).toEqual([200, { ok: true }, 2]);
  });

  it('reports a 429 whose Retry-After is too long to wait', async () => {
    hits = 0;
    retryAfter = '3600';
    const response = await send({ baseUrl, timeoutMs: 5000 }, { operationId: 'getHealth', method: 'GET', path: '/healthz' });
    expect([response.status, hits]).toEqual([429, 1]);
  });

  it('answers a redirect with its status and Location, without following it', async () => {
    const response = await send({ baseUrl, timeoutMs: 5000 }, { operationId: 'startOidcSignIn', method: 'GET', path: '/redirect' });
    expect([response.status, response.headers.get('location')]).toEqual([302, 'https://accounts.example.invalid/authorize']);
  });
});

describe('headerValue', () => {
  it('reads an integer header only when it is a canonical decimal integer', () => {
    const integer = { type: 'integer', minimum: 0 };
    expect(['42', '-1', '0'].map((text) => headerValue(text, integer))).toEqual([42, -1, 0]);
    // Left as text, which the schema then refuses ("must be integer") rather than reading 042 as 42.
    expect(['042', '+42', '4.2e1', ' 42', '42.0', '', '0x2a'].map((text) => headerValue(text, integer))).toEqual([
      '042',
      '+42',
      '4.2e1',
      ' 42',
      '42.0',
      '',
      '0x2a',
    ]);
  });

  it('reads numbers and booleans, and leaves strings (and nullable strings) as they are', () => {
    expect(headerValue('1.5', { type: 'number' })).toBe(1.5);
    expect(headerValue('1.5.', { type: 'number' })).toBe('1.5.');
    expect([headerValue('true', { type: 'boolean' }), headerValue('yes', { type: 'boolean' })]).toEqual([true, 'yes']);
    expect(headerValue('007', { type: ['string', 'null'] })).toBe('007');
  });
});

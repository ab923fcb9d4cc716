// The WebSocket upgrade of /ws-stomp is an HTTP request like any other before it becomes a
// connection: it gets a request id (X-Request-Id on the 101) and a log line, counts against the
// rate limit of its client address (429 past it, no WebSocket); an upgrade to any other path gets
// the app's answer to that request, and a plain GET of /ws-stomp is 404.
import http from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { stompServerPath } from '../../generated/asyncapi.js';
import { wsUrl } from '../support/stompTestClient.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const logLines: { msg: string; requestId?: string; path?: string }[] = [];
const logSink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(JSON.parse(String(chunk)) as { msg: string });
    done();
  },
});

/** Resolves with the status and headers of the upgrade's answer: 101 when the WebSocket opened. */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; protocol: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['v12.stomp'], { headers });
    ws.once('upgrade', (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers, protocol: String(res.headers['sec-websocket-protocol']) });
      ws.close();
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers, protocol: '' });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
  });
}

describe('the WebSocket upgrade of /ws-stomp', () => {
  let s: TestServer;
  let ws: string;
  beforeAll(async () => {
    s = await startTestServer(
      { RATE_LIMIT_PER_MINUTE: '3' },
      { logger: pino({ level: 'info', formatters: { level: (label) => ({ level: label }) } }, logSink) },
    );
    ws = wsUrl(s.url);
  });
  afterAll(() => s.stop());

  it('answers 101 with the STOMP subprotocol, the client’s request id and the rate limit headers, and logs the request under that id', async () => {
    const requestId = 'upgrade-0001-abcdef';
    const answer = await upgrade(ws, { 'x-request-id': requestId });
    expect(answer.status).toBe(101);
    expect(answer.protocol).toBe('v12.stomp');
    expect(answer.headers['x-request-id']).toBe(requestId);
    expect(answer.headers['ratelimit-limit']).toBe('3');
    expect(logLines.some((line) => line.msg === 'request' && line.requestId === requestId && line.path === stompServerPath)).toBe(true);
  });

  it('counts against the rate limit: past it the upgrade is 429 with Retry-After and no WebSocket opens', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await upgrade(ws));
    const refused = answers.find((a) => a.status === 429);
    expect(refused).toBeDefined();
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('upgrades elsewhere', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('an upgrade to another path gets what a GET of it gets (404 for no operation, 401 for one without a token) and opens nothing', async () => {
    const base = s.url.replace(/^http/, 'ws');
    expect((await upgrade(`${base}/nowhere`)).status).toBe(404);
    expect((await upgrade(`${base}/api/v1/trips`)).status).toBe(401);
  });

  it('a GET of /ws-stomp without an upgrade is 404', async () => {
    expect((await fetch(`${s.url}${stompServerPath}`)).status).toBe(404);
  });
});

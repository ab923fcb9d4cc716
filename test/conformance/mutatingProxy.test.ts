// The mutating proxy in front of a stand-in server: without a mutation it forwards HTTP and STOMP
// as they came (heart-beats included, and an upgrade the server refuses); with one it applies and
// counts it, for HTTP requests and responses and for STOMP frames both ways (rewritten, dropped,
// doubled, delayed past later ones); and it reads bodies only up to its bound.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startMutatingProxy, type MutatingProxy } from '../../conformance/mutation/mutatingProxy.js';
import type { Mutation } from '../../conformance/mutation/mutation.js';
import { headerOf, withHeader } from '../../conformance/mutation/stompFrames.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/**
 * The stand-in: HTTP answers with what it got (as JSON, status 201, a header of its own); a
 * WebSocket at /ws-stomp sends each frame it gets back as a MESSAGE naming its command, after a
 * heart-beat; `REFUSE` in the upgrade's query is answered 429 with Retry-After.
 */
async function standIn(): Promise<{ url: string; framesGot: string[] }> {
  const framesGot: string[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = JSON.stringify({ method: req.method, url: req.url, token: req.headers.authorization ?? null, body: Buffer.concat(parts).toString() });
      res.writeHead(201, { 'content-type': 'application/json', 'x-stand-in': 'yes' }).end(body);
    });
  });
  const sockets = new WebSocketServer({ noServer: true, handleProtocols: () => 'v12.stomp' });
  server.on('upgrade', (req, socket, head) => {
    if (req.url?.includes('REFUSE')) return void socket.end('HTTP/1.1 429 Too Many Requests\r\nretry-after: 7\r\ncontent-length: 0\r\n\r\n');
    sockets.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data: Buffer) => {
        framesGot.push(data.toString());
        const command = data.toString().split('\n')[0]!;
        if (command === 'DISCONNECT') return ws.close(4001, 'bye');
        ws.send('\n');
        ws.send(`MESSAGE\ndestination:/user/sub/chat/1\nsubscription:sub-1\nx-got:${command}\n\n{}\0`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(async () => {
    sockets.clients.forEach((client) => client.terminate());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, framesGot };
}

async function proxyFor(url: string, mutation: Mutation = {}, maxBodyBytes?: number): Promise<MutatingProxy> {
  const proxy = await startMutatingProxy({ baseUrl: url, wsUrl: `${url.replace('http', 'ws')}/ws-stomp`, mutation, maxBodyBytes });
  stops.push(() => proxy.close());
  return proxy;
}

/** A WebSocket client of the proxy: what it received, message by message. */
async function stompClient(url: string): Promise<{ socket: WebSocket; received: string[]; closed: Promise<number> }> {
  const socket = new WebSocket(url, ['v12.stomp']);
  const received: string[] = [];
  socket.on('message', (data: Buffer) => received.push(data.toString()));
  const closed = new Promise<number>((resolve) => socket.on('close', resolve));
  await new Promise((resolve, reject) => socket.on('open', resolve).on('error', reject));
  return { socket, received, closed };
}

const until = async (condition: () => boolean) => {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5000) throw new Error('the condition did not come true within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('the mutating proxy over HTTP', () => {
  it('forwards method, path, query, headers and body, and the answer, as they are without a mutation', async () => {
    const { url } = await standIn();
    const proxy = await proxyFor(url);
    const res = await fetch(`${proxy.url}/api/v1/trips?size=2`, { method: 'PATCH', headers: { authorization: 'Bearer t' }, body: '{"title":"x"}' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-stand-in')).toBe('yes');
    expect(await res.json()).toEqual({ method: 'PATCH', url: '/api/v1/trips?size=2', token: 'Bearer t', body: '{"title":"x"}' });
    expect(proxy.applied()).toBe(0);
  });

  it('answers in the server’s place, or rewrites the answer, and counts each time', async () => {
    const { url } = await standIn();
    const proxy = await proxyFor(url, {
      request: (request) => (request.path === '/teapot' ? { status: 418, headers: {}, body: Buffer.from('short and stout') } : undefined),
      response: (response) => ({ ...response, status: 200, headers: { ...response.headers, 'x-stand-in': undefined } }),
    });
    const teapot = await fetch(`${proxy.url}/teapot`);
    expect([teapot.status, await teapot.text()]).toEqual([418, 'short and stout']);
    const rewritten = await fetch(`${proxy.url}/other`);
    expect([rewritten.status, rewritten.headers.get('x-stand-in')]).toEqual([200, null]);
    expect(proxy.applied()).toBe(2);
  });

  it('reads a request body only up to its bound, and says so with a 502', async () => {
    const { url } = await standIn();
    const proxy = await proxyFor(url, {}, 1024);
    const res = await fetch(`${proxy.url}/big`, { method: 'POST', body: 'x'.repeat(4096) });
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/over 1024 bytes/);
  });
});

describe('the mutating proxy over STOMP', () => {
  it('relays frames and heart-beats both ways as they came, and the server’s close with its code', async () => {
    const { url, framesGot } = await standIn();
    const proxy = await proxyFor(url);
    const client = await stompClient(proxy.wsUrl);
    expect(client.socket.protocol).toBe('v12.stomp');
    // One frame in two WebSocket messages, then two frames in one.
    client.socket.send('SUBSCRIBE\nid:sub-1\ndestination:/user/sub/chat/1\n');
    client.socket.send('\n\0SEND\ndestination:/pub/chat/1/message\n\n{}\0');
    await until(() => client.received.length === 4);
    expect(framesGot).toEqual(['SUBSCRIBE\nid:sub-1\ndestination:/user/sub/chat/1\n\n\0', 'SEND\ndestination:/pub/chat/1/message\n\n{}\0']);
    expect(client.received.map((m) => (m === '\n' ? 'EOL' : /x-got:(\w+)/.exec(m)?.[1]))).toEqual(['EOL', 'SUBSCRIBE', 'EOL', 'SEND']);
    client.socket.send('DISCONNECT\n\n\0');
    expect(await client.closed).toBe(4001);
    expect(proxy.applied()).toBe(0);
  });

  it('lets a mutation rewrite, drop, double and delay frames in either direction', async () => {
    const { url, framesGot } = await standIn();
    const proxy = await proxyFor(url, {
      // The client's SEND loses its receipt; its BEGIN never arrives.
      toServer: (frame) => (frame.command === 'SEND' ? [withHeader(frame, 'receipt', 'gone')] : frame.command === 'BEGIN' ? [] : undefined),
      // The answer to SUBSCRIBE comes twice, the answer to SEND only after the answer to ABORT.
      toClient(frame) {
        const got = headerOf(frame, 'x-got');
        if (got === 'SUBSCRIBE') return [frame, frame];
        if (got === 'SEND') return [{ frame, delayMs: 200 }];
        return undefined;
      },
    });
    const client = await stompClient(proxy.wsUrl);
    for (const command of ['SUBSCRIBE', 'SEND', 'BEGIN', 'ABORT']) client.socket.send(`${command}\nid:1\n\n\0`);
    await until(() => client.received.filter((m) => m !== '\n').length === 4);
    expect(framesGot.map((f) => f.split('\n')[0])).toEqual(['SUBSCRIBE', 'SEND', 'ABORT']);
    expect(framesGot[1]).toBe('SEND\nid:1\nreceipt:gone\n\n\0');
    expect(client.received.filter((m) => m !== '\n').map((m) => /x-got:(\w+)/.exec(m)?.[1])).toEqual(['SUBSCRIBE', 'SUBSCRIBE', 'ABORT', 'SEND']);
    expect(proxy.applied()).toBe(4);
  });

  it('passes on the server’s refusal of the upgrade, and refuses upgrades elsewhere than the STOMP endpoint', async () => {
    const { url } = await standIn();
    const proxy = await proxyFor(url);
    const statusOf = (target: string) =>
      new Promise<[number, string | undefined]>((resolve) => {
        const socket = new WebSocket(target, ['v12.stomp']);
        socket.on('unexpected-response', (_request, response) => resolve([response.statusCode ?? 0, response.headers['retry-after']]));
        socket.on('error', () => undefined);
      });
    expect(await statusOf(`${proxy.wsUrl}?REFUSE`)).toEqual([429, '7']);
    expect((await statusOf(proxy.wsUrl.replace('/ws-stomp', '/elsewhere')))[0]).toBe(404);
  });
});

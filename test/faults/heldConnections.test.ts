// Connections that are opened and then held without signing in, or filled a header line at a time,
// cannot hold the server: a WebSocket without CONNECT is closed (WS109), a slow request is answered
// 408 and closed, and connections beyond the caps per client address and per instance are refused
// with the documented codes while /healthz and /readyz keep answering. The real server on a loopback
// port; 127.0.0.2 is a second client address. Time limits bound a hang; none is a speed claim.
import { afterEach, describe, expect, it } from 'vitest';
import { REFUSAL_RESERVE_PER_ADDRESS } from '../../src/http/connectionLimits.js';
import { closedWithin, errorCodeIn, getFrom, holdConnection, upgradeFrom, type HeldConnection } from '../support/rawConnections.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { webSocketText } from '../support/webSocketText.js';

const HANG_LIMIT_MS = 15_000;
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

async function hold(s: TestServer, count: number, localAddress = '127.0.0.1'): Promise<HeldConnection[]> {
  const connections: HeldConnection[] = [];
  for (let i = 0; i < count; i++) connections.push(await holdConnection(s.server.port, localAddress));
  held.push(...connections);
  // The server counts a connection when it accepts it; a probe that answers proves it got that far.
  await getFrom(s.server.port, '/healthz', '127.0.0.3');
  return connections;
}

async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let waited = 0; ; waited += 50) {
    const value = await attempt();
    if (done(value) || waited > HANG_LIMIT_MS) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('connections held without signing in', { timeout: 4 * HANG_LIMIT_MS }, () => {
  it('a WebSocket that never sends CONNECT gets ERROR WS109 and is closed after STOMP_CONNECT_TIMEOUT_MS', async () => {
    const s = await server({ STOMP_CONNECT_TIMEOUT_MS: '300' });
    const { socket } = await upgradeFrom(s.url);
    if (!socket) throw new Error('upgrade refused');
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(webSocketText(data)));
    const code = await Promise.race([
      new Promise<number>((resolve) => socket.once('close', resolve)),
      new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), HANG_LIMIT_MS).unref()),
    ]);
    socket.terminate();
    expect(code).toBe(1008);
    expect(frames.join('')).toMatch(/^ERROR\n(.*\n)*error-code:WS109\n/);
  });

  it('a WebSocket that CONNECTs in time is not closed by that deadline', async () => {
    const s = await server({ STOMP_CONNECT_TIMEOUT_MS: '300' });
    const { accessToken } = await s.signIn('in-time@example.com');
    const socket = await openRawStomp(s.url, accessToken);
    expect(socket.frames.map((f) => f.command)).toEqual(['CONNECTED']);
    // Past the deadline (three times over), the connection still answers.
    await new Promise((resolve) => setTimeout(resolve, 900));
    socket.send('DISCONNECT\nreceipt:bye\n\n\0');
    expect(await socket.receiptOrClose('bye')).toBe('RECEIPT');
    socket.close();
  });

  it('a request whose headers come a line at a time is answered 408 and closed after HTTP_HEADERS_TIMEOUT_MS, and so is a connection that sends nothing', async () => {
    const s = await server({ HTTP_HEADERS_TIMEOUT_MS: '500' });
    const [slow, silent] = [await holdConnection(s.server.port), await holdConnection(s.server.port)];
    held.push(slow, silent);
    slow.socket.write('GET /api/v1/regions HTTP/1.1\r\nHost: localhost\r\n');
    const drip = setInterval(() => slow.socket.writable && slow.socket.write(`X-Drip-${Date.now()}: 1\r\n`), 100);
    try {
      expect(await closedWithin(slow, HANG_LIMIT_MS)).toBe('closed');
      expect(await closedWithin(silent, HANG_LIMIT_MS)).toBe('closed');
    } finally {
      clearInterval(drip);
    }
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('connections beyond MAX_CONNECTIONS_PER_ADDRESS get 429 COMMON429 and are closed; the probes answer, another address is served', async () => {
    const s = await server({ MAX_CONNECTIONS_PER_ADDRESS: '4' });
    const [first] = await hold(s, 4);
    const refused = await getFrom(s.server.port, '/api/v1/regions');
    expect([refused.status, errorCodeIn(refused), refused.headers['retry-after'], refused.headers.connection]).toEqual([429, 'COMMON429', '5', 'close']);
    const upgrade = await upgradeFrom(s.url);
    expect(upgrade).toEqual({ status: 429, retryAfter: '5' });
    // The probes are answered even from the address at its cap, and another address is served as usual.
    expect((await getFrom(s.server.port, '/healthz')).status).toBe(200);
    expect((await getFrom(s.server.port, '/readyz')).status).toBe(200);
    expect((await getFrom(s.server.port, '/api/v1/regions', '127.0.0.2')).status).toBe(200);
    // One connection closed: room for the next.
    first!.socket.destroy();
    expect(
      (
        await eventually(
          () => getFrom(s.server.port, '/api/v1/regions'),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
  });

  it('connections beyond MAX_CONNECTIONS get 503 COMMON503 (a WebSocket before its upgrade); /healthz and /readyz still answer', async () => {
    const s = await server({ MAX_CONNECTIONS: '4' });
    await hold(s, 4, '127.0.0.2');
    const refused = await getFrom(s.server.port, '/api/v1/regions');
    expect([refused.status, errorCodeIn(refused), refused.headers['retry-after']]).toEqual([503, 'COMMON503', '5']);
    expect(await upgradeFrom(s.url)).toEqual({ status: 503, retryAfter: '5' });
    expect(JSON.parse((await getFrom(s.server.port, '/healthz')).body)).toMatchObject({ status: 200, data: { status: 'UP' } });
    expect((await getFrom(s.server.port, '/readyz')).status).toBe(200);
  });

  it('beyond the answers kept for refused connections, one address gets its connections closed unread, and another still reaches /healthz', async () => {
    const s = await server({ MAX_CONNECTIONS_PER_ADDRESS: '2' });
    await hold(s, 2);
    const flood = await hold(s, REFUSAL_RESERVE_PER_ADDRESS + 20);
    const unread = flood.slice(REFUSAL_RESERVE_PER_ADDRESS);
    for (const connection of unread) expect(await closedWithin(connection, HANG_LIMIT_MS)).toBe('closed');
    expect(unread.map((c) => c.received())).toEqual(unread.map(() => ''));
    expect((await getFrom(s.server.port, '/healthz', '127.0.0.2')).status).toBe(200);
    // The ones kept to be answered are closed too when they send nothing.
    for (const connection of flood.slice(0, REFUSAL_RESERVE_PER_ADDRESS)) expect(await closedWithin(connection, HANG_LIMIT_MS)).toBe('closed');
  });

  it('behind a proxy (TRUST_PROXY_HOPS=1) WebSockets count by the forwarded client address, and the proxy itself is not capped', async () => {
    const s = await server({ MAX_CONNECTIONS_PER_ADDRESS: '2', TRUST_PROXY_HOPS: '1' });
    const from = (client: string) => upgradeFrom(s.url, '127.0.0.1', { 'X-Forwarded-For': client });
    const sockets = [await from('203.0.113.7'), await from('203.0.113.7')];
    expect(sockets.map((u) => u.status)).toEqual([101, 101]);
    expect(await from('203.0.113.7')).toEqual({ status: 429, retryAfter: '5' });
    const other = await from('203.0.113.8');
    expect(other.status).toBe(101);
    // Every socket comes from the proxy's address: more of them than the per-address cap are served.
    await hold(s, 4);
    expect((await getFrom(s.server.port, '/api/v1/regions')).status).toBe(200);
    // A WebSocket closed gives its client's place back.
    sockets[0]!.socket?.close();
    const again = await eventually(
      () => from('203.0.113.7'),
      (u) => u.status === 101,
    );
    expect(again.status).toBe(101);
    for (const u of [...sockets, other, again]) u.socket?.terminate();
  });
});

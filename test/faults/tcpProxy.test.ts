// The fault proxy every test of this folder stands between the service and PostgreSQL or Redis: each
// fault does to a real connection what the test says it does (an echo server stands in for the
// database here).
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../support/tcpProxy.js';

interface Echo {
  port: number;
  close(): Promise<void>;
}

async function startEcho(): Promise<Echo> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface Client {
  socket: net.Socket;
  received(): string;
  /** resolves with the error code or 'closed' when the socket ends */
  ended: Promise<string>;
}

async function connect(port: number): Promise<Client> {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const ended = new Promise<string>((resolve) => {
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.on('close', () => resolve('closed'));
  });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  return { socket, received: () => text, ended };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('the fault proxy', () => {
  let echo: Echo;
  let proxy: TcpProxy;
  const clients: Client[] = [];

  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    await proxy?.close();
    await echo?.close();
  });

  async function setUp(): Promise<void> {
    echo = await startEcho();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port });
  }

  async function client(): Promise<Client> {
    const c = await connect(proxy.port);
    clients.push(c);
    return c;
  }

  it('passes bytes both ways', async () => {
    await setUp();
    const c = await client();
    c.socket.write('hello');
    await until(() => c.received() === 'hello', 'the echo');
    expect(proxy.connections()).toBe(1);
  });

  it('reset() aborts open connections with ECONNRESET and keeps accepting new ones', async () => {
    await setUp();
    const c = await client();
    c.socket.write('a');
    await until(() => c.received() === 'a', 'the echo');
    proxy.reset();
    expect(await c.ended).toBe('ECONNRESET');
    const again = await client();
    again.socket.write('b');
    await until(() => again.received() === 'b', 'the echo after the reset');
  });

  it('pause() holds bytes on open and new connections without closing them; restore() delivers them in order', async () => {
    await setUp();
    const c = await client();
    proxy.pause();
    c.socket.write('one,');
    c.socket.write('two');
    const late = await client();
    late.socket.write('late');
    await settle();
    expect(c.received()).toBe('');
    expect(late.received()).toBe('');
    expect(c.socket.destroyed).toBe(false);
    proxy.restore();
    await until(() => c.received() === 'one,two' && late.received() === 'late', 'the held bytes');
  });

  it('latency(ms) delays every chunk, in order', async () => {
    await setUp();
    const c = await client();
    proxy.latency(120);
    const sent = Date.now();
    c.socket.write('x');
    await settle();
    c.socket.write('y');
    await until(() => c.received() === 'xy', 'the delayed echo');
    // two hops of 120 ms each for the first chunk: at least that long
    expect(Date.now() - sent).toBeGreaterThanOrEqual(240);
  });

  it('cut() closes every connection and refuses new ones until restore()', async () => {
    await setUp();
    const c = await client();
    proxy.cut();
    expect(await c.ended).toBe('closed');
    const refused = await connect(proxy.port);
    clients.push(refused);
    expect(await refused.ended).toBe('closed');
    proxy.restore();
    const again = await client();
    again.socket.write('z');
    await until(() => again.received() === 'z', 'the echo after restore');
  });
});

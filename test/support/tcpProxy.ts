// A TCP proxy the test controls, in front of a server (PostgreSQL, Redis), so that a test can make
// "the network" or "the server" misbehave without touching a shared server:
// - cut(): drops every connection and refuses new ones, as a server that went away would;
// - reset(): aborts every open connection with a TCP RST (ECONNRESET on both sides) and keeps
//   accepting new ones, as a failover, a pgbouncer restart or pg_terminate_backend would;
// - pause(): holds every byte in both directions, on open and on new connections, without closing
//   anything, as a stopped server (SIGSTOP) or a black-hole partition (packets dropped, no reset:
//   TCP retransmits them once the link heals) would; nothing is lost, it flows on at restore();
// - latency(ms): delays every chunk by ms in each direction, order kept;
// - restore(): lets traffic through again (latency 0, paused bytes flushed in order).
import net from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): void;
  reset(): void;
  pause(): void;
  /** alias of pause(): what a black-hole partition looks like to both ends */
  blackHole(): void;
  latency(ms: number): void;
  restore(): void;
  /** connections open through the proxy now */
  connections(): number;
  close(): Promise<void>;
}

interface Link {
  client: net.Socket;
  upstream: net.Socket | null;
  /** chunks from the client held while paused or while the upstream connects */
  toUpstream: Buffer[];
  toClient: Buffer[];
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let accepting = true;
  let paused = false;
  let delayMs = 0;

  function forward(link: Link, from: 'client' | 'upstream', chunk: Buffer): void {
    const queue = from === 'client' ? link.toUpstream : link.toClient;
    const deliver = () => {
      queue.push(chunk);
      flush(link);
    };
    if (delayMs > 0) setTimeout(deliver, delayMs);
    else deliver();
  }

  function flush(link: Link): void {
    if (paused) return;
    if (link.upstream && link.upstream.readyState === 'open') {
      for (const chunk of link.toUpstream.splice(0)) link.upstream.write(chunk);
    }
    if (!link.client.destroyed) for (const chunk of link.toClient.splice(0)) link.client.write(chunk);
  }

  function connectUpstream(link: Link): void {
    if (link.upstream || link.client.destroyed) return;
    const upstream = net.connect(target.port, target.host);
    link.upstream = upstream;
    upstream.on('connect', () => flush(link));
    upstream.on('data', (chunk: Buffer) => forward(link, 'upstream', chunk));
    upstream.on('error', () => link.client.destroy());
    upstream.on('close', () => link.client.destroy());
  }

  function setReading(on: boolean): void {
    for (const link of links) {
      if (on) {
        link.client.resume();
        link.upstream?.resume();
      } else {
        link.client.pause();
        link.upstream?.pause();
      }
    }
  }

  const server = net.createServer((client) => {
    if (!accepting) return client.destroy();
    const link: Link = { client, upstream: null, toUpstream: [], toClient: [] };
    links.add(link);
    client.on('data', (chunk: Buffer) => forward(link, 'client', chunk));
    client.on('error', () => link.upstream?.destroy());
    client.on('close', () => {
      links.delete(link);
      link.upstream?.destroy();
    });
    // A paused "server" accepts the connection (the kernel's backlog does) but answers nothing.
    if (paused) client.pause();
    else connectUpstream(link);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const destroyAll = (rst: boolean) => {
    for (const link of [...links]) {
      for (const socket of [link.client, link.upstream]) {
        if (!socket || socket.destroyed) continue;
        if (rst) socket.resetAndDestroy();
        else socket.destroy();
      }
    }
  };

  const pause = () => {
    paused = true;
    setReading(false);
  };

  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      accepting = false;
      destroyAll(false);
    },
    reset() {
      destroyAll(true);
    },
    pause,
    blackHole: pause,
    latency(ms: number) {
      delayMs = ms;
    },
    restore() {
      accepting = true;
      delayMs = 0;
      if (!paused) return;
      paused = false;
      setReading(true);
      for (const link of links) {
        connectUpstream(link);
        flush(link);
      }
    },
    connections: () => links.size,
    async close() {
      accepting = false;
      destroyAll(false);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `url` with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.toString();
}

// RSS per idle STOMP connection: `count` WebSockets to /ws-stomp, each CONNECTed (no heart-beats)
// with one SUBSCRIBE acknowledged by a RECEIPT, then left idle; the server's RSS before and after,
// over the count. The client is this process (plain `ws`, raw frames: no per-connection client
// library state to speak of); the server is a child process, so its RSS is its own.
import WebSocket from 'ws';
import type { ChildServer } from './childServer.js';
import { rssBytes } from './processRss.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function openIdle(url: string, token: string, destination: string, n: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const fail = (why: string) => {
      socket.terminate();
      reject(new Error(`connection ${n}: ${why}`));
    };
    socket.once('error', (error) => fail(error.message));
    socket.once('open', () => socket.send(`CONNECT\naccept-version:1.2\nhost:127.0.0.1\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`));
    socket.on('message', (data: Buffer) => {
      const frame = data.toString();
      if (frame.startsWith('CONNECTED')) socket.send(`SUBSCRIBE\nid:sub-0\ndestination:${destination}\nreceipt:r-${n}\n\n\0`);
      else if (frame.startsWith('RECEIPT')) {
        socket.removeAllListeners('message');
        resolve(socket);
      } else if (frame.startsWith('ERROR')) fail(frame.slice(0, 300));
    });
  });
}

export interface IdleConnections {
  count: number;
  rssBefore: number;
  rssAfter: number;
  bytesPerConnection: number;
}

/** Opens `count` idle connections to the server in batches, reads its RSS, closes them again. */
export async function measureIdleConnections(
  server: ChildServer,
  opts: { token: string; destination: string; count: number; settleMs: number },
): Promise<IdleConnections> {
  const url = `${server.baseUrl.replace(/^http/, 'ws')}/ws-stomp`;
  const rss = () => {
    const bytes = rssBytes(server.pid);
    if (bytes === null) throw new Error('no /proc: the server RSS is not readable here');
    return bytes;
  };
  // A few connections first, so code paths and buffers that every connection shares are already in the before.
  const warm = await Promise.all(Array.from({ length: 20 }, (_v, i) => openIdle(url, opts.token, opts.destination, i)));
  for (const socket of warm) socket.close();
  await sleep(opts.settleMs);
  const rssBefore = rss();
  const sockets: WebSocket[] = [];
  try {
    for (let at = 0; at < opts.count; at += 100) {
      const batch = Math.min(100, opts.count - at);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, (_v, i) => openIdle(url, opts.token, opts.destination, at + i)))));
    }
    await sleep(opts.settleMs);
    const rssAfter = rss();
    return { count: opts.count, rssBefore, rssAfter, bytesPerConnection: (rssAfter - rssBefore) / opts.count };
  } finally {
    for (const socket of sockets) socket.terminate();
  }
}

// The recording STOMP client the runner uses reads no more than its limits: a frame over
// maxFrameBytes, or a connection that goes on sending past maxConnectionBytes (an endless frame in
// many small WebSocket messages, which stompjs would keep whole), is closed, and says why.
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRecordingStomp } from '../../conformance/stomp/recordingStompClient.js';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A STOMP server that says CONNECTED and then does what `then` does to the socket. */
async function stompServer(then: (socket: WebSocket) => void): Promise<string> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'v12.stomp' });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) => {
    socket.once('message', () => {
      socket.send('CONNECTED\nversion:1.2\n\n\0');
      then(socket);
    });
  });
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws-stomp`;
}

/** Sends `chunk` over and over, as fast as the socket drains, until it closes or `total` bytes are out. */
function flood(socket: WebSocket, chunk: string, total: number): void {
  let sent = 0;
  const more = () => {
    if (socket.readyState !== socket.OPEN || sent >= total) return;
    sent += chunk.length;
    socket.send(chunk, () => setImmediate(more));
  };
  more();
}

describe('the recording STOMP client within its limits', () => {
  it('closes the connection at a frame over maxFrameBytes', async () => {
    const url = await stompServer((socket) => socket.send(`MESSAGE\ndestination:/x\n\n${'a'.repeat(2 * 1024 * 1024)}\0`));
    const client = await connectRecordingStomp(url, 'token', { connectTimeoutMs: 5000, maxFrameBytes: 1024 * 1024 });
    await client.closed;
    expect(client.overLimit).toBe('a WebSocket message over 1048576 bytes');
    expect(client.messages).toEqual([]);
  });

  it('closes a connection that sends past maxConnectionBytes, even in small messages', async () => {
    const url = await stompServer((socket) => {
      socket.send('MESSAGE\ndestination:/x\n\n');
      // Far more than the limit, and without the frame's end.
      flood(socket, 'a'.repeat(64 * 1024), 64 * 1024 * 1024);
    });
    const client = await connectRecordingStomp(url, 'token', { connectTimeoutMs: 5000, maxFrameBytes: 1024 * 1024, maxConnectionBytes: 4 * 1024 * 1024 });
    await client.closed;
    expect(client.overLimit).toBe('over 4194304 bytes on one connection');
  });
});

// A client that keeps beating is not closed with WS102 because the server's event loop stalled: the
// beats that arrived during the stall are read before the verdict. A client that really went quiet
// still is. Real sockets, so the order of timers and socket reads is node's own.
import net from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnectionWatches, type WatchedConnection } from '../../src/stomp/stompConnectionWatch.js';
import { createLogger } from '../../src/kernel/logger.js';

// Long enough that a busy CI machine's own pauses (tens of ms) are not a silence of twice this.
const INCOMING_MS = 200;
// Its own clean-ups rather than cleanUps.ts, which would bring in the test app and a database.
const cleanUps: (() => void)[] = [];
afterEach(() => {
  for (const cleanUp of cleanUps.splice(0).reverse()) cleanUp();
});

/** A watched connection over a loopback socket: anything the peer writes counts as a heart-beat. */
async function watchedPair() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const peer = net.connect(port, '127.0.0.1');
  const [accepted] = (await once(server, 'connection')) as [net.Socket];
  await once(peer, 'connect');
  const ended: string[] = [];
  const connection: WatchedConnection = {
    heartBeats: { header: `0,${INCOMING_MS}`, outgoingMs: 0, incomingMs: INCOMING_MS },
    expiresAt: Date.now() + 60_000,
    lastReceivedAt: Date.now(),
    sendHeartBeat() {},
    isSessionLive: () => Promise.resolve(true),
    end: (code) => void ended.push(code),
  };
  accepted.on('data', () => ((connection as { lastReceivedAt: number }).lastReceivedAt = Date.now()));
  const watches = createConnectionWatches({ clock: Date.now, sessionCheckMs: 60_000, log: createLogger('silent') });
  watches.watch(connection);
  cleanUps.push(() => {
    watches.unwatch(connection);
    peer.destroy();
    accepted.destroy();
    server.close();
  });
  return { peer, ended };
}

function stallEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

const turns = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('heart-beat check after the event loop stalled', () => {
  it('keeps a client whose beat arrived during the stall', async () => {
    const { peer, ended } = await watchedPair();
    await turns(INCOMING_MS);
    // Stalled from the check phase, so the loop's next turn starts with the (overdue) timers and
    // only then reads the socket: the order a stall in any I/O callback gives.
    await new Promise((resolve) => setImmediate(resolve));
    stallEventLoop(INCOMING_MS * 4);
    // the beat is in the kernel's buffer now; the server reads it only after the next turn's timers
    peer.write('\n');
    stallEventLoop(5);
    await turns(INCOMING_MS / 2);
    expect(ended).toEqual([]);
  });

  it('still closes a client that sent nothing for twice the agreed interval', async () => {
    const { ended } = await watchedPair();
    await vi.waitFor(() => expect(ended).toContain('WS102'), { timeout: INCOMING_MS * 20, interval: INCOMING_MS / 4 });
  });
});

// The timers that keep connections honest once CONNECTED (asyncapi.yaml, server `stomp`): heart-beats
// both ways, the access token's expiry, and the periodic session check — a safety net, since a logout
// closes the session's connections at once (stompConnections.endSession). Shared by every connection
// of the endpoint (sharedTicker.ts): one timer per kind and period, not four timers per connection.
import type { Logger } from '../kernel/logger.js';
import { sharedTicker, type SharedTicker } from './sharedTicker.js';
import type { HeartBeats } from './stompHandshake.js';

/** A CONNECTED connection, as the watches see it. */
export interface WatchedConnection {
  readonly heartBeats: HeartBeats;
  /** epoch ms when the connection's access token expires */
  readonly expiresAt: number;
  /** clock() when the client last sent anything (a frame or a heart-beat) */
  readonly lastReceivedAt: number;
  sendHeartBeat(): void;
  isSessionLive(): Promise<boolean>;
  /** ends the connection with an ERROR frame */
  end(code: 'WS002' | 'WS102', message: string): void;
}

export interface ConnectionWatches {
  watch(connection: WatchedConnection): void;
  unwatch(connection: WatchedConnection): void;
}

/** How often expiry is checked: the token ends within this of its `exp`. */
const EXPIRY_CHECK_MS = 1000;

export function createConnectionWatches(options: { clock: () => number; sessionCheckMs: number; log: Logger }): ConnectionWatches {
  const { clock, log } = options;
  const expired = (c: WatchedConnection) => clock() >= c.expiresAt && (c.end('WS002', 'The access token expired.'), true);
  const expiry = sharedTicker<WatchedConnection>(EXPIRY_CHECK_MS, expired);
  const sessionCheck = sharedTicker<WatchedConnection>(options.sessionCheckMs, (c) => {
    if (expired(c)) return;
    c.isSessionLive().then(
      (live) => live || c.end('WS002', 'The session was logged out.'),
      // The storage cannot be read now; the next check decides. An unhandled rejection would end the process.
      (error: unknown) => log.warn({ err: error }, 'stomp session check failed'),
    );
  });
  // Heart-beat periods are negotiated per connection: a ticker per period in use, dropped when it empties.
  const outgoing = new Map<number, SharedTicker<WatchedConnection>>();
  const incoming = new Map<number, SharedTicker<WatchedConnection>>();
  const tickerFor = (tickers: Map<number, SharedTicker<WatchedConnection>>, periodMs: number, visit: (c: WatchedConnection) => void) => {
    let ticker = tickers.get(periodMs);
    if (!ticker) tickers.set(periodMs, (ticker = sharedTicker(periodMs, visit)));
    return ticker;
  };
  const sendHeartBeat = (c: WatchedConnection) => c.sendHeartBeat();
  // Generous grace for the peer, as STOMP 1.2 suggests: twice the agreed interval.
  const silent = (c: WatchedConnection) => clock() - c.lastReceivedAt > c.heartBeats.incomingMs * 2;
  // After the event loop stalled, this timer runs before the socket reads that waited behind the
  // stall (timers come before I/O in a loop turn), so a peer that kept beating looks silent. Judge
  // again once those reads are done (setImmediate runs after them); only a real silence ends it.
  const checkHeartBeat = (c: WatchedConnection) => {
    if (silent(c)) setImmediate(() => silent(c) && c.end('WS102', 'No heart-beat from the client.'));
  };
  const leave = (tickers: Map<number, SharedTicker<WatchedConnection>>, periodMs: number, c: WatchedConnection) => {
    const ticker = tickers.get(periodMs);
    if (!ticker) return;
    ticker.delete(c);
    if (ticker.size === 0) tickers.delete(periodMs);
  };

  return {
    watch(c) {
      const { outgoingMs, incomingMs } = c.heartBeats;
      if (outgoingMs > 0) tickerFor(outgoing, outgoingMs, sendHeartBeat).add(c);
      if (incomingMs > 0) tickerFor(incoming, incomingMs, checkHeartBeat).add(c);
      expiry.add(c);
      sessionCheck.add(c);
    },
    unwatch(c) {
      const { outgoingMs, incomingMs } = c.heartBeats;
      if (outgoingMs > 0) leave(outgoing, outgoingMs, c);
      if (incomingMs > 0) leave(incoming, incomingMs, c);
      expiry.delete(c);
      sessionCheck.delete(c);
    },
  };
}

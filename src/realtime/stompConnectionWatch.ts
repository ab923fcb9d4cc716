// The timers that keep a connection honest once CONNECTED (asyncapi.yaml, server `stomp`): heart-beats
// both ways, the access token's expiry, and the periodic session check — a safety net, since a logout
// closes the session's connections at once (stompConnections.endSession).
import type { Logger } from '../logger.js';
import type { HeartBeats } from './stompHandshake.js';

export interface ConnectionWatchOptions {
  heartBeats: HeartBeats;
  clock: () => number;
  /** when the client last sent anything (a frame or a heart-beat) */
  lastReceivedAt: () => number;
  sendHeartBeat: () => void;
  /** epoch ms when the connection's access token expires */
  expiresAt: number;
  sessionCheckMs: number;
  isSessionLive: () => Promise<boolean>;
  /** ends the connection with an ERROR frame */
  end: (code: 'WS002' | 'WS102', message: string) => void;
  log: Logger;
}

/** Starts the timers; the returned function stops them all. */
export function watchConnection(options: ConnectionWatchOptions): () => void {
  const { heartBeats, clock, expiresAt, end } = options;
  const timers: NodeJS.Timeout[] = [];
  if (heartBeats.outgoingMs > 0) timers.push(setInterval(options.sendHeartBeat, heartBeats.outgoingMs));
  if (heartBeats.incomingMs > 0) {
    // Generous grace for the peer, as STOMP 1.2 suggests: twice the agreed interval.
    const silentTooLong = () => clock() - options.lastReceivedAt() > heartBeats.incomingMs * 2;
    timers.push(setInterval(() => silentTooLong() && end('WS102', 'No heart-beat from the client.'), heartBeats.incomingMs));
  }
  // setTimeout overflows past 2^31-1 ms (about 24.8 days); longer tokens are caught by the periodic check.
  timers.push(setTimeout(() => end('WS002', 'The access token expired.'), Math.min(2 ** 31 - 1, Math.max(0, expiresAt - clock()))));
  timers.push(
    setInterval(() => {
      if (clock() >= expiresAt) return end('WS002', 'The access token expired.');
      options.isSessionLive().then(
        (live) => live || end('WS002', 'The session was logged out.'),
        // The storage cannot be read now; the next check decides. An unhandled rejection would end the process.
        (error: unknown) => options.log.warn({ err: error }, 'stomp session check failed'),
      );
    }, options.sessionCheckMs),
  );
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}

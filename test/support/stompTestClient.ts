// The product's recording STOMP client (conformance/stomp/), plus every frame the server sent on the
// connection, read off the socket with the server's own STOMP parser, for the frame contract checks.
import type { RawData, WebSocket } from 'ws';
import { connectRecordingStomp, type RecordingStompClient, type RecordingStompOptions } from '../../conformance/index.js';
import { createFrameReader, type ObservedFrame } from './documentedFrames.js';
import { webSocketText } from './webSocketText.js';

export { wsUrl, type ReceivedMessage } from '../../conformance/index.js';

export interface StompTestClient extends RecordingStompClient {
  /** every frame the server sent on this connection, in order */
  frames: ObservedFrame[];
}

export type ConnectOptions = Pick<RecordingStompOptions, 'heartbeatMs' | 'upgradeToken'>;

/** Connects (`token` in the CONNECT frame, if any); resolves after CONNECTED, or after the ERROR frame if the server refuses. */
export async function connectStomp(url: string, token: string | null, options: ConnectOptions = {}): Promise<StompTestClient> {
  const frames: ObservedFrame[] = [];
  const readFrames = createFrameReader();
  const client = await connectRecordingStomp(url, token, { ...options, onData: (data) => frames.push(...readFrames(data)) });
  return Object.assign(client, { frames });
}

/**
 * Resolves once the server has sent `count` heart-beats (a lone EOL) on this connection; rejects,
 * saying why, when the connection closes first. No time window: a loaded machine delays beats.
 * Ask for beats of a few hundred ms: the client closes a connection that sent nothing for twice
 * the period, and a stall of the test process (its timers run before its socket reads) looks so.
 */
export function heartBeatsReceived(c: StompTestClient, count: number): Promise<void> {
  const socket = c.client.webSocket as unknown as WebSocket;
  return new Promise<void>((resolve, reject) => {
    let beats = 0;
    socket.on('message', (data: RawData) => webSocketText(data) === '\n' && ++beats === count && resolve());
    socket.on('close', (code, reason) =>
      reject(new Error(`closed after ${beats} heart-beats: ${code} ${reason.toString()} ${JSON.stringify(c.frames.at(-1))}`)),
    );
  });
}

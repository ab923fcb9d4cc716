// The product's recording STOMP client (conformance/stomp/), plus every frame the server sent on the
// connection, read off the socket with the server's own STOMP parser, for the frame contract checks.
import WebSocket, { type RawData } from 'ws';
import { connectRecordingStomp, type RecordingStompClient, type RecordingStompOptions } from '../../conformance/index.js';
import { createFrameReader, type ObservedFrame } from './documentedFrames.js';
import { webSocketText } from './webSocketText.js';

export { wsUrl, type ReceivedMessage } from '../../conformance/index.js';

export interface StompTestClient extends RecordingStompClient {
  /** every frame the server sent on this connection, in order */
  frames: ObservedFrame[];
}

export type ConnectOptions = Pick<RecordingStompOptions, 'heartbeatMs' | 'upgradeToken' | 'connectHeaders'>;

/** Connects (`token` in the CONNECT frame, if any); resolves after CONNECTED, or after the ERROR frame if the server refuses. */
export async function connectStomp(url: string, token: string | null, options: ConnectOptions = {}): Promise<StompTestClient> {
  const frames: ObservedFrame[] = [];
  const readFrames = createFrameReader();
  const client = await connectRecordingStomp(url, token, { ...options, onData: (data) => frames.push(...readFrames(data)) });
  return Object.assign(client, { frames });
}

/**
 * CONNECTs over a plain WebSocket asking the server for heart-beats every `everyMs` and sending
 * none (`heart-beat: 0,<everyMs>`, so neither side checks the client), and resolves with CONNECTED's
 * `heart-beat` header once `count` beats (a lone EOL) arrived; rejects, saying why, when the
 * connection closes first. No time window, and no client of its own that could give up on a slow
 * server: a loaded machine only delays the beats.
 */
export async function heartBeatsReceived(url: string, token: string, everyMs: number, count: number): Promise<string> {
  const socket = new WebSocket(url, ['v12.stomp']);
  try {
    return await new Promise<string>((resolve, reject) => {
      let received = '';
      let beats = 0;
      socket.on('open', () => socket.send(`CONNECT\naccept-version:1.2\nheart-beat:0,${everyMs}\nAuthorization:Bearer ${token}\n\n\0`));
      socket.on('message', (data: RawData) => {
        const text = webSocketText(data);
        if (text !== '\n') received += text;
        else if (++beats === count) resolve(/\nheart-beat:([^\n]*)\n/.exec(received)?.[1] ?? '');
      });
      socket.on('close', (code, reason) => reject(new Error(`closed after ${beats} heart-beats: ${code} ${reason.toString()} ${received}`)));
      socket.on('error', reject);
    });
  } finally {
    socket.close();
  }
}

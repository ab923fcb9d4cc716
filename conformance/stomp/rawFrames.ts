// Bytes no STOMP client library would send (a garbage frame, say), on a fresh STOMP WebSocket.
import WebSocket from 'ws';
import { STOMP_SUBPROTOCOLS } from './stompOverWs.js';

/**
 * Sends the frames as they are and resolves with what came back before the close (or the time ran
 * out, or `maxBytes` arrived: what came back is then cut there).
 */
export function sendRawFrames(url: string, frames: string[], timeoutMs: number, maxBytes = 1024 * 1024): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, STOMP_SUBPROTOCOLS, { maxPayload: maxBytes });
    let received = '';
    let bytes = 0;
    const done = () => (clearTimeout(timer), socket.terminate(), resolve(received));
    const timer = setTimeout(done, timeoutMs);
    socket.on('open', () => frames.forEach((f) => socket.send(f)));
    // `ws` hands a Buffer to a socket with the default binaryType (nodebuffer).
    socket.on('message', (data: Buffer) => {
      const kept = Math.min(data.length, maxBytes - bytes);
      received += data.toString('utf8', 0, kept);
      bytes += kept;
      if (bytes >= maxBytes) done();
    });
    socket.on('close', done);
    socket.on('error', done);
  });
}

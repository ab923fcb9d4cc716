// Bytes no STOMP client library would send (a garbage frame, say), on a fresh STOMP WebSocket.
import WebSocket from 'ws';
import { STOMP_SUBPROTOCOLS } from './stompOverWs.js';

/** Sends the frames as they are and resolves with what came back before the close (or the time ran out). */
export function sendRawFrames(url: string, frames: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, STOMP_SUBPROTOCOLS);
    let received = '';
    const done = () => (clearTimeout(timer), socket.terminate(), resolve(received));
    const timer = setTimeout(done, timeoutMs);
    socket.on('open', () => frames.forEach((f) => socket.send(f)));
    // `ws` hands a Buffer to a socket with the default binaryType (nodebuffer).
    socket.on('message', (data: Buffer) => (received += data.toString('utf8')));
    socket.on('close', done);
    socket.on('error', done);
  });
}

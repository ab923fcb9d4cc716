// One STOMP connection through the mutating proxy: the client's WebSocket on one side, the
// server's on the other, every frame read in both directions and handed to the mutation, which may
// rewrite, drop, duplicate, delay or reorder it. What the mutation leaves alone goes on as the bytes
// that came (heart-beats included), one WebSocket message per frame; a direction whose bytes cannot
// be framed is passed on untouched from then on, so hostile input reaches the server as sent.
import type WebSocket from 'ws';
import type { Mutation, Outgoing, StompLink, SubscriptionSeen } from './mutation.js';
import { encodeStompFrame, headerOf, StompFrameReader, type StompFrame } from './stompFrames.js';

export interface RelaySetup {
  client: WebSocket;
  server: WebSocket;
  mutation: Mutation;
  number: number;
  maxFrameBytes: number;
  /** told each time a hook replaced a frame */
  onApplied: () => void;
}

interface Direction {
  from: WebSocket;
  to: WebSocket;
  reader: StompFrameReader;
  hook: ((frame: StompFrame, link: StompLink) => Outgoing[] | undefined) | undefined;
  /** what the relay learns from a frame (subscriptions, receipts, the version) */
  observe: (frame: StompFrame) => void;
  /** delayed frames not sent yet: the close waits for them */
  pending: Set<NodeJS.Timeout>;
}

/** A close code the other side may be sent (1005 and 1006 only describe a close, they are not sent). */
const sendableCode = (code: number) => code === 1000 || (code >= 1001 && code <= 1014 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);

export function relayStomp(setup: RelaySetup): void {
  const subscriptions = new Map<string, SubscriptionSeen>();
  const link: StompLink = { number: setup.number, subscriptions };
  const readers = { toServer: new StompFrameReader(setup.maxFrameBytes), toClient: new StompFrameReader(setup.maxFrameBytes) };
  const toServer: Direction = {
    from: setup.client,
    to: setup.server,
    reader: readers.toServer,
    hook: setup.mutation.toServer?.bind(setup.mutation),
    observe: (frame) => observeClientFrame(frame, subscriptions),
    pending: new Set(),
  };
  const toClient: Direction = {
    from: setup.server,
    to: setup.client,
    reader: readers.toClient,
    hook: setup.mutation.toClient?.bind(setup.mutation),
    observe: (frame) => {
      observeServerFrame(frame, subscriptions);
      // STOMP 1.0 escapes nothing: both readers follow the version the server chose.
      if (frame.command === 'CONNECTED' && headerOf(frame, 'version') === '1.0') readers.toServer.escaping = readers.toClient.escaping = false;
    },
    pending: new Set(),
  };
  for (const direction of [toServer, toClient]) {
    direction.from.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => relayMessage(direction, link, setup, toBuffer(data), isBinary));
    direction.from.on('close', (code: number) => closeAfterPending(direction, code));
    direction.from.on('error', () => direction.to.terminate());
  }
}

const toBuffer = (data: Buffer | ArrayBuffer | Buffer[]): Buffer =>
  Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);

function relayMessage(direction: Direction, link: StompLink, setup: RelaySetup, bytes: Buffer, isBinary: boolean): void {
  const send = (payload: Buffer) => {
    if (direction.to.readyState === direction.to.OPEN) direction.to.send(isBinary ? payload : payload.toString('utf8'), { binary: isBinary });
  };
  const { chunks, unframed } = direction.reader.push(bytes);
  for (const chunk of chunks) {
    if (chunk.kind === 'heartbeat') {
      send(chunk.raw);
      continue;
    }
    const outgoing = direction.hook?.(chunk.frame, link);
    if (outgoing === undefined) {
      direction.observe(chunk.frame);
      send(chunk.raw);
      continue;
    }
    setup.onApplied();
    for (const out of outgoing) {
      const frame = 'delayMs' in out ? out.frame : out;
      const encode = () => (direction.observe(frame), encodeStompFrame(frame, direction.reader.escaping));
      if (!('delayMs' in out)) {
        send(encode());
        continue;
      }
      const timer = setTimeout(() => (direction.pending.delete(timer), send(encode())), out.delayMs);
      direction.pending.add(timer);
    }
  }
  if (unframed) send(unframed);
}

/** The other side is closed as this one was, once the frames delayed towards it are sent. */
function closeAfterPending(direction: Direction, code: number): void {
  const close = () => {
    if (direction.pending.size > 0) return void setTimeout(close, 10);
    if (sendableCode(code)) direction.to.close(code);
    else direction.to.terminate();
  };
  close();
}

function observeClientFrame(frame: StompFrame, subscriptions: Map<string, SubscriptionSeen>): void {
  const id = headerOf(frame, 'id');
  if (frame.command === 'UNSUBSCRIBE' && id !== undefined) subscriptions.delete(id);
  if (frame.command !== 'SUBSCRIBE' || id === undefined) return;
  const asked = headerOf(frame, 'x-replay') !== undefined ? 'all' : headerOf(frame, 'x-since') !== undefined ? 'since' : 'live';
  subscriptions.set(id, { destination: headerOf(frame, 'destination') ?? '', asked, receipt: headerOf(frame, 'receipt'), receipted: false });
}

function observeServerFrame(frame: StompFrame, subscriptions: Map<string, SubscriptionSeen>): void {
  if (frame.command !== 'RECEIPT') return;
  const receiptId = headerOf(frame, 'receipt-id');
  for (const subscription of subscriptions.values())
    if (subscription.receipt !== undefined && subscription.receipt === receiptId) subscription.receipted = true;
}

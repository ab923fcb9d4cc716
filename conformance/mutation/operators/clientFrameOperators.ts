// Bugs in how the server reads what a client sends, played by taking from the client's frames what
// such a server ignores: x-since and x-replay on a SUBSCRIBE, the receipt of a SEND, a frame whose
// command STOMP does not have.
import type { MutationOperator } from '../operator.js';
import { headerOf, withoutHeader, type StompFrame } from '../stompFrames.js';
import { rewriteToServer } from './stompRewrites.js';

const clientCommands = new Set(['CONNECT', 'STOMP', 'SEND', 'SUBSCRIBE', 'UNSUBSCRIBE', 'ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT', 'DISCONNECT']);

/** The client's `command` frames without header `name`, as a server that ignores it reads them. */
const ignoring = (command: string, name: string) =>
  rewriteToServer((frame: StompFrame) => (frame.command === command && headerOf(frame, name) !== undefined ? [withoutHeader(frame, name)] : undefined));

export const clientFrameOperators: MutationOperator[] = [
  {
    id: 'subscribe-x-since-ignored',
    description: 'a SUBSCRIBE with x-since is served as a plain one: live messages only, no history, no x-recovered',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompSubscribeHeaders/properties/x-since/description',
      text: 'first deliver the messages of the destination that came after it, then live messages, without gap or duplicate.',
    },
    phases: ['async'],
    meantFor: 'message_replay',
    mutation: ignoring('SUBSCRIBE', 'x-since'),
  },
  {
    id: 'subscribe-x-replay-ignored',
    description: 'a SUBSCRIBE with x-replay: all is served as a plain one',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompSubscribeHeaders/properties/x-replay/description',
      text: "`all`: first deliver what the destination's log retains of its current epoch",
    },
    phases: ['async'],
    meantFor: 'message_replay',
    mutation: ignoring('SUBSCRIBE', 'x-replay'),
  },
  {
    id: 'send-receipt-ignored',
    description: 'a chat SEND with a receipt header gets no RECEIPT',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/operations/receiveReceipts/description',
      text: 'A `RECEIPT` answers every client frame with a `receipt` header once the frame was handled',
    },
    phases: ['async'],
    meantFor: 'stomp_error_frame',
    mutation: ignoring('SEND', 'receipt'),
  },
  {
    id: 'unknown-command-ignored',
    description: 'a frame whose command STOMP does not have is ignored instead of refused with ERROR WS102',
    quote: {
      file: 'openapi.yaml',
      pointer: '/components/schemas/ErrorCode/oneOf/38/description',
      text: 'A malformed frame, one over the frame size limit, an unsupported command or version, or missing heart-beats.',
    },
    phases: ['async'],
    meantFor: 'stomp_error_frame',
    mutation: rewriteToServer((frame) => (clientCommands.has(frame.command) ? undefined : [])),
  },
];

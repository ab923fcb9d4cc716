// Bugs in the frames that steer a STOMP connection: CONNECTED with a version or heart-beat a
// client cannot read, ERROR frames with a wrong code or without their message, a refusal turned
// into a RECEIPT, a CONNECT whose token is not checked.
import type { MutationOperator } from '../operator.js';
import { headerOf, withHeader, withoutHeader } from '../stompFrames.js';
import { headerValue } from './httpRewrites.js';
import { rewriteToClient } from './stompRewrites.js';

const phases = ['async'];
const headerCheck = 'frame_headers';

export const connectionOperators: MutationOperator[] = [
  {
    id: 'connected-echoes-accept-version',
    description: 'CONNECTED echoes the client’s accept-version list (1.2,1.1,1.0) as its version',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompConnectedHeaders/properties/version/description',
      text: 'The STOMP version of this connection (the highest both sides speak).',
    },
    phases,
    meantFor: headerCheck,
    mutation() {
      const offered = new Map<number, string>();
      return {
        toServer(frame, link) {
          if (frame.command === 'CONNECT' || frame.command === 'STOMP') offered.set(link.number, headerOf(frame, 'accept-version') ?? '1.0');
          return undefined;
        },
        toClient: (frame, link) =>
          frame.command === 'CONNECTED' && offered.has(link.number) ? [withHeader(frame, 'version', offered.get(link.number)!)] : undefined,
      };
    },
  },
  {
    id: 'connected-heart-beat-with-space',
    description: 'CONNECTED writes its heart-beat with a space after the comma (10000, 10000)',
    quote: { file: 'asyncapi.yaml', pointer: '/servers/stomp/description', text: '`heart-beat` (the server proposes `10000,10000`)' },
    phases,
    meantFor: headerCheck,
    mutation: rewriteToClient((frame) =>
      frame.command === 'CONNECTED' ? [withHeader(frame, 'heart-beat', (headerOf(frame, 'heart-beat') ?? '0,0').replace(',', ', '))] : undefined,
    ),
  },
  {
    id: 'error-frame-with-http-code',
    description: 'the ERROR frame refusing a bad token carries the HTTP code AUTH001 instead of WS001',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/messages/StompError/description',
      text: '`error-code` is one of the codes of `ErrorCode` (openapi.yaml) whose `x-stomp` lists `error-frame`.',
    },
    phases,
    meantFor: headerCheck,
    mutation: rewriteToClient((frame) =>
      frame.command === 'ERROR' && headerOf(frame, 'error-code') === 'WS001' ? [withHeader(frame, 'error-code', 'AUTH001')] : undefined,
    ),
  },
  {
    id: 'error-frame-without-message',
    description: 'ERROR frames come without their message header',
    quote: { file: 'asyncapi.yaml', pointer: '/servers/stomp/description', text: 'a `message` header and the same text as a `text/plain` body' },
    phases,
    meantFor: headerCheck,
    mutation: rewriteToClient((frame) =>
      frame.command === 'ERROR' && headerOf(frame, 'message') !== undefined ? [withoutHeader(frame, 'message')] : undefined,
    ),
  },
  {
    id: 'foreign-subscription-receipted',
    description: 'a SUBSCRIBE to another member’s plan gets a RECEIPT instead of ERROR WS004',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/operations/receiveScheduleUpdates/description',
      text: "Ownership is checked: a plan that is not the caller's (or does not exist) → `ERROR` frame with `error-code: WS004`, then close.",
    },
    phases,
    meantFor: 'stomp_error_frame',
    mutation: rewriteToClient((frame) => {
      const receiptId = headerOf(frame, 'receipt-id');
      return frame.command === 'ERROR' && headerOf(frame, 'error-code') === 'WS004' && receiptId !== undefined
        ? [{ command: 'RECEIPT', headers: [['receipt-id', receiptId]], body: Buffer.alloc(0) }]
        : undefined;
    }),
  },
  {
    id: 'connect-token-unchecked',
    description: 'a CONNECT with a token that is not valid is accepted as the member who signed in last',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/servers/stomp/description',
      text: 'Failure → `ERROR` frame with header `error-code: WS001`, then the server closes the connection.',
    },
    phases,
    meantFor: 'stomp_error_frame',
    mutation() {
      // The tokens the server accepted over HTTP: a CONNECT with any other is played as the last of them.
      const accepted: string[] = [];
      return {
        response(response, request) {
          const authorization = headerValue(request, 'authorization');
          if (response.status < 300 && authorization !== undefined && !accepted.includes(authorization)) accepted.push(authorization);
          return undefined;
        },
        toServer(frame) {
          const authorization = headerOf(frame, 'Authorization');
          if (frame.command !== 'CONNECT' || authorization === undefined || accepted.length === 0 || accepted.includes(authorization)) return undefined;
          return [withHeader(frame, 'Authorization', accepted.at(-1)!)];
        },
      };
    },
  },
];

// Bugs in one MESSAGE frame the server sends: its headers (missing, undeclared, wrong values) and
// its payload (a field renamed, a value of the wrong type).
import type { MutationOperator } from '../operator.js';
import { headerOf, jsonBodyOf, withHeader, withJsonBody, withoutHeader } from '../stompFrames.js';
import { isMessage, rewriteToClient } from './stompRewrites.js';

const phases = ['async'];
const headerCheck = 'frame_headers';

export const messageOperators: MutationOperator[] = [
  {
    id: 'message-without-message-id',
    description: 'MESSAGE frames come without message-id',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/servers/stomp/description',
      text: '**MESSAGE** frames carry `content-type: application/json`, `content-length`, a unique `message-id`',
    },
    phases,
    meantFor: headerCheck,
    mutation: rewriteToClient((frame) => (isMessage(frame) ? [withoutHeader(frame, 'message-id')] : undefined)),
  },
  {
    id: 'message-with-undeclared-header',
    description: 'MESSAGE frames carry a header no message declares (persistent: true, as a broker adds it)',
    quote: { file: 'asyncapi.yaml', pointer: '/servers/stomp/description', text: 'No frame the server sends carries a header its message does not declare.' },
    phases,
    meantFor: headerCheck,
    mutation: rewriteToClient((frame) => (isMessage(frame) ? [withHeader(frame, 'persistent', 'true')] : undefined)),
  },
  {
    id: 'message-content-type-with-charset',
    description: 'MESSAGE frames say content-type: application/json;charset=UTF-8',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompMessageHeaders/properties/content-type/description',
      text: 'Always `application/json`.',
    },
    phases,
    meantFor: headerCheck,
    mutation: rewriteToClient((frame) => (isMessage(frame) ? [withHeader(frame, 'content-type', 'application/json;charset=UTF-8')] : undefined)),
  },
  {
    id: 'message-for-another-subscription',
    description: 'MESSAGE frames name the server’s own subscription id, not the id of the client’s SUBSCRIBE',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompMessageHeaders/properties/subscription/description',
      text: "The `id` header of the client's SUBSCRIBE frame this message is delivered for.",
    },
    phases,
    meantFor: 'message_order',
    mutation: rewriteToClient((frame) => (isMessage(frame) ? [withHeader(frame, 'subscription', `server-${headerOf(frame, 'subscription')}`)] : undefined)),
  },
  {
    id: 'message-destination-internal',
    description: 'MESSAGE frames name the broker’s internal topic as their destination, not the subscribed one',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompMessageHeaders/properties/destination/description',
      text: 'The subscribed destination, e.g. `/user/sub/chat/42`.',
    },
    phases,
    meantFor: 'message_valid',
    mutation: rewriteToClient((frame) =>
      isMessage(frame) ? [withHeader(frame, 'destination', (headerOf(frame, 'destination') ?? '').replace('/user/sub/', '/topic/member-'))] : undefined,
    ),
  },
  {
    id: 'day-payload-field-renamed',
    description: 'the saved day of a schedule message is sent as dayPlan instead of dailyPlan',
    quote: { file: 'asyncapi.yaml', pointer: '/components/schemas/TripPlanDayMessage/required', text: '"dailyPlan"' },
    phases,
    meantFor: 'message_valid',
    mutation: rewriteToClient((frame) => {
      const body = jsonBodyOf(frame);
      if (!isMessage(frame, 'schedule') || typeof body !== 'object' || body === null || !('dailyPlan' in body)) return undefined;
      const { dailyPlan, ...rest } = body as Record<string, unknown>;
      return [withJsonBody(frame, { ...rest, dayPlan: dailyPlan })];
    }),
  },
  {
    id: 'chat-timestamp-epoch-millis',
    description: 'chat messages carry their timestamp as epoch milliseconds instead of an ISO-8601 instant',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/Instant/description', text: 'ISO-8601 instant in UTC, e.g. `2026-11-22T09:30:00Z`.' },
    phases,
    meantFor: 'message_valid',
    mutation: rewriteToClient((frame) => {
      const body = jsonBodyOf(frame) as Record<string, unknown> | undefined;
      if (!isMessage(frame, 'chat') || typeof body?.timestamp !== 'string') return undefined;
      return [withJsonBody(frame, { ...body, timestamp: Date.parse(body.timestamp) })];
    }),
  },
];

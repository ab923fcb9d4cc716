// Bugs in what a subscriber gets over time: positions that skip or change epoch midway, a message
// dropped, doubled or out of order, a replayed history with a hole, out of place or misreported
// by its RECEIPT.
import type { Mutation, Outgoing } from '../mutation.js';
import type { MutationOperator } from '../operator.js';
import { headerOf, withHeader, type StompFrame } from '../stompFrames.js';
import { generatedDayOf, isHistory, isMessage, rewriteToClient } from './stompRewrites.js';

/**
 * Rewrites the positions of the messages (`x-epoch`, `x-offset`) with `shift`, and the `x-since`
 * of a client's SUBSCRIBE back with `unshift`, so the server and the client each see positions
 * that make sense to them: as a server would that numbers its messages this way.
 */
function shiftedPositions(
  shift: (epoch: string, offset: number) => [string, number],
  unshift: (epoch: string, offset: number) => [string, number],
): () => Mutation {
  const rewrite = (frame: StompFrame, header: 'x-since' | 'position', move: typeof shift): StompFrame[] | undefined => {
    const [epoch, offsetText] =
      header === 'x-since' ? (headerOf(frame, 'x-since') ?? '').split(':') : [headerOf(frame, 'x-epoch'), headerOf(frame, 'x-offset')];
    if (!epoch || !offsetText || !/^[0-9]+$/.test(offsetText)) return undefined;
    const [movedEpoch, movedOffset] = move(epoch, Number(offsetText));
    if (movedEpoch === epoch && movedOffset === Number(offsetText)) return undefined;
    if (header === 'x-since') return [withHeader(frame, 'x-since', `${movedEpoch}:${movedOffset}`)];
    return [withHeader(withHeader(frame, 'x-epoch', movedEpoch), 'x-offset', String(movedOffset))];
  };
  return () => ({
    toClient: (frame) => (isMessage(frame) ? rewrite(frame, 'position', shift) : undefined),
    toServer: (frame) => (frame.command === 'SUBSCRIBE' ? rewrite(frame, 'x-since', unshift) : undefined),
  });
}

/** Per connection, what `pick` chooses among the messages it has seen (counted from 1) goes out as `change` makes it. */
function perConnection(pick: (frame: StompFrame, seen: number) => boolean, change: (frame: StompFrame) => Outgoing[]): () => Mutation {
  return () => {
    const seen = new Map<number, number>();
    return {
      toClient(frame, link) {
        if (!isMessage(frame)) return undefined;
        const count = (seen.get(link.number) ?? 0) + 1;
        seen.set(link.number, count);
        return pick(frame, count) ? change(frame) : undefined;
      },
    };
  };
}

const epochMark = 'x';

export const deliveryOperators: MutationOperator[] = [
  {
    id: 'offset-skipped',
    description: 'the offsets of a log skip a number after its second message (3 is never used)',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompMessageHeaders/properties/x-offset/description',
      text: 'Within an epoch the offsets of a log are consecutive across the channels of that log',
    },
    phases: ['delivery'],
    meantFor: 'delivery_gap',
    mutation: shiftedPositions(
      (epoch, offset) => [epoch, offset >= 3 ? offset + 1 : offset],
      (epoch, offset) => [epoch, offset >= 4 ? offset - 1 : offset],
    ),
  },
  {
    id: 'epoch-changed-midway',
    description: 'a log’s epoch changes at its fourth message, in the middle of a run, with nothing lost',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompMessageHeaders/properties/x-epoch/description',
      text: 'an epoch that begins a run or a log starts at `x-offset` 1, one that begins after lost messages starts past 1.',
    },
    phases: ['delivery'],
    meantFor: 'delivery_gap',
    mutation: shiftedPositions(
      (epoch, offset) => [offset >= 4 ? `${epoch}${epochMark}` : epoch, offset],
      (epoch, offset) => [epoch.endsWith(epochMark) && offset >= 4 ? epoch.slice(0, -epochMark.length) : epoch, offset],
    ),
  },
  {
    id: 'day-message-dropped',
    description: 'the DAILY_PLAN_GENERATED of day 2 never reaches the subscribers',
    quote: { file: 'asyncapi.yaml', pointer: '/info/description', text: 'A subscriber never misses a message without being told.' },
    phases: ['async'],
    meantFor: 'message_order',
    mutation: rewriteToClient((frame) => (generatedDayOf(frame) === 2 ? [] : undefined)),
  },
  {
    id: 'third-message-duplicated',
    description: 'the third message a connection gets is delivered twice',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/servers/stomp/description',
      text: 'One subscription per destination per connection means one message reaches a connection once',
    },
    phases: ['delivery'],
    meantFor: 'delivery_once',
    mutation: perConnection(
      (_frame, seen) => seen === 3,
      (frame) => [frame, frame],
    ),
  },
  {
    id: 'summary-before-its-day',
    description: 'day 2’s DAILY_PLAN_GENERATED is overtaken by the first chunk of its summary',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/operations/receiveChatStream/description',
      text: "after the schedule channel's `DAILY_PLAN_GENERATED` for day `d`, the summary of day `d` arrives as `CHAT` chunks",
    },
    phases: ['async'],
    meantFor: 'message_order',
    mutation() {
      const held = new Map<number, StompFrame>();
      return {
        toClient(frame, link) {
          const waiting = held.get(link.number);
          if (waiting && isMessage(frame)) {
            held.delete(link.number);
            return [frame, waiting];
          }
          if (generatedDayOf(frame) !== 2) return undefined;
          held.set(link.number, frame);
          return [];
        },
      };
    },
  },
  {
    id: 'history-hole-recovered-true',
    description: 'a replaying SUBSCRIBE leaves out the second message of the history, and its RECEIPT still says x-recovered: true',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/components/schemas/StompReceiptHeaders/properties/x-recovered/description',
      text: '`true`: every message from the point asked for (for `x-replay: all`, from offset 1 of the current epoch) was delivered before this `RECEIPT`, once and in order.',
    },
    phases: ['async'],
    meantFor: 'message_replay',
    mutation() {
      const replayed = new Map<string, number>();
      return {
        toClient(frame, link) {
          if (!isHistory(frame, link)) return undefined;
          const key = `${link.number} ${headerOf(frame, 'subscription')}`;
          replayed.set(key, (replayed.get(key) ?? 0) + 1);
          return replayed.get(key) === 2 ? [] : undefined;
        },
      };
    },
  },
  {
    id: 'history-whole-recovered-false',
    description: 'the RECEIPT of a replaying SUBSCRIBE says x-recovered: false though the whole history was delivered',
    quote: { file: 'asyncapi.yaml', pointer: '/info/description', text: '`false` when any of it is lost' },
    phases: ['async'],
    meantFor: 'message_replay',
    mutation: rewriteToClient((frame) =>
      frame.command === 'RECEIPT' && headerOf(frame, 'x-recovered') === 'true' ? [withHeader(frame, 'x-recovered', 'false')] : undefined,
    ),
  },
  {
    id: 'history-after-receipt',
    description: 'the history a replaying SUBSCRIBE asked for arrives after its RECEIPT',
    quote: {
      file: 'asyncapi.yaml',
      pointer: '/operations/subscribe/description',
      text: 'the history arrives before the `RECEIPT`, which then carries `x-recovered`.',
    },
    phases: ['async'],
    meantFor: 'message_replay',
    mutation: rewriteToClient((frame, link) => (isHistory(frame, link) ? [{ frame, delayMs: 300 }] : undefined)),
  },
];

// The channel table of asyncapi.yaml as the client reads it: which channels it may subscribe to and
// send on, the log each one's messages are in, and a message's place in its log. All of it comes
// from the generated table, so a channel the spec adds is typed here without a line written.
import {
  channelAddress,
  channelDelivery,
  channels,
  delivery,
  type ChannelName,
  type ChannelParameters,
  type DeliveryChannelName,
  type DeliveryLogName,
} from '../generated/realtime/asyncapi.js';

type ActionsOf<C extends ChannelName> = (typeof channels)[C]['actions'][number];

/** The channels the client receives on (SUBSCRIBE); each has its `x-delivery`. */
export type ReceivableChannel = Extract<{ [C in ChannelName]: 'receive' extends ActionsOf<C> ? C : never }[ChannelName], DeliveryChannelName>;

/** The channels the client sends on (SEND). */
export type SendableChannel = { [C in ChannelName]: 'send' extends ActionsOf<C> ? C : never }[ChannelName];

/** A log of `components.x-delivery.logs` (a plan's, a chat room's). */
export type LogName = DeliveryLogName;

/** A message's place in its log: the `x-epoch` and `x-offset` of its MESSAGE frame. */
export interface Position {
  epoch: string;
  offset: number;
}

/** The log the messages of `channel` are in. */
export const logOf = (channel: ReceivableChannel): LogName => channelDelivery[channel].log;

const deliveryChannels = Object.keys(channelDelivery) as DeliveryChannelName[];

/** The channels whose messages are in `log`: its offsets count over all of them. */
export const channelsOfLog = (log: LogName): readonly DeliveryChannelName[] => deliveryChannels.filter((c) => channelDelivery[c].log === log);

/** The channels that carry the message ending a run (`endsRun`). */
export const runEndChannels: readonly DeliveryChannelName[] = deliveryChannels.filter((c) => channelDelivery[c].endsRun.length > 0);

/** The concrete destination of a channel (its address template filled). */
export const destinationOf = <C extends ChannelName>(channel: C, parameters: ChannelParameters<C>): string => channelAddress(channel, parameters);

const OFFSET = /^[1-9][0-9]{0,15}$/;

/** The position a MESSAGE frame's headers give (`delivery.position`), or null when they give none. */
export function positionOf(headers: Readonly<Record<string, string | undefined>>): Position | null {
  const epoch = headers[delivery.position.epochHeader];
  const offset = headers[delivery.position.offsetHeader];
  if (!epoch || !offset || !OFFSET.test(offset)) return null;
  return { epoch, offset: Number(offset) };
}

/** `<epoch>:<offset>`, the value of a resuming SUBSCRIBE's `x-since`. */
export const positionText = (position: Position): string => `${position.epoch}:${position.offset}`;

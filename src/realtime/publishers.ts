// Typed publishers, one per server-to-client channel of asyncapi.yaml: the payload type comes from
// generated/asyncapi.ts and every payload is checked with the generated validator before it leaves
// (a violation throws in strict mode, is logged otherwise).
import { channelAddress, channels, type ChannelName, type ChannelParameters, type ChannelPayloads } from '../../generated/asyncapi.js';
import { messageValidators } from '../../generated/validators.js';
import type { ResponseValidationMode } from '../config.js';
import { fitErrorResponse } from '../http/errorBodyLimits.js';
import type { Logger } from '../logger.js';
import type { Broker } from './broker.js';

export type ServerChannel = 'chatStream' | 'scheduleUpdates' | 'errors';

export class MessageContractError extends Error {}

export interface Publishers {
  chat(memberId: number, chatRoomId: number, payload: ChannelPayloads['chatStream']): void;
  schedule(memberId: number, tripPlanId: number, payload: ChannelPayloads['scheduleUpdates']): void;
  error(memberId: number, chatRoomId: number, payload: ChannelPayloads['errors']): void;
  /** Counters since start, for benchmarks and tests. */
  readonly stats: { published: number; delivered: number };
}

export function createPublishers(broker: Broker, mode: ResponseValidationMode, log: Logger): Publishers {
  const stats = { published: 0, delivered: 0 };

  function publish<C extends ServerChannel>(channel: C, memberId: number, parameters: ChannelParameters<C>, payload: ChannelPayloads[C]): void {
    const destination = channelAddress(channel, parameters);
    if (mode !== 'off') {
      const messageName = channels[channel as ChannelName].messages[0] as keyof typeof messageValidators;
      const validate = messageValidators[messageName];
      if (!validate(payload)) {
        const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
        log.error({ channel, destination, problems }, 'message does not match asyncapi.yaml');
        if (mode === 'strict') throw new MessageContractError(`${channel} message violates asyncapi.yaml: ${problems.join('; ')}`);
      }
    }
    stats.published++;
    stats.delivered += broker.publish(memberId, destination, JSON.stringify(payload));
  }

  return {
    chat: (memberId, chatRoomId, payload) => publish('chatStream', memberId, { chatRoomId }, payload),
    schedule: (memberId, tripPlanId, payload) => publish('scheduleUpdates', memberId, { tripPlanId }, payload),
    // Error messages may echo what a client sent (a destination, a planner's complaint): same limits as HTTP.
    error: (memberId, chatRoomId, payload) => publish('errors', memberId, { chatRoomId }, fitErrorResponse(payload)),
    stats,
  };
}

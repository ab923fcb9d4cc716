// client/src/generated/realtime/operations.ts: one typed function per operation of asyncapi.yaml,
// named by its operationId as the HTTP half names its functions: `receive…` subscribes to the
// channel (resolving once the subscription is live), `send…` sends to it (resolving on its RECEIPT).
// They are the connection's subscribe() and send() with the channel filled in, so a client cannot
// pair a channel with another channel's parameters or payload.
import type { ChannelFact } from '../../conformance/specModel/index.js';
import { GENERATED_HEADER } from '../naming.js';

function receiveFunction(channel: ChannelFact, operationId: string): string {
  const name = JSON.stringify(channel.name);
  return `/** SUBSCRIBE to \`${channel.address}\` (${operationId}); resolves once its RECEIPT came: the subscription is live. */
export function ${operationId}(
  connection: RealtimeConnection,
  parameters: ChannelParameters<${name}>,
  handler: SubscriptionHandler<${name}>,
  options?: SubscribeOptions,
): Promise<RealtimeSubscription<${name}>> {
  return connection.subscribe(${name}, parameters, handler, options);
}
`;
}

function sendFunction(channel: ChannelFact, operationId: string): string {
  const name = JSON.stringify(channel.name);
  return `/** SEND to \`${channel.address}\` (${operationId}); resolves on its RECEIPT. */
export function ${operationId}(connection: RealtimeConnection, parameters: ChannelParameters<${name}>, payload: ChannelPayloads[${name}]): Promise<void> {
  return connection.send(${name}, parameters, payload);
}
`;
}

export function emitClientChannelOperations(channels: ChannelFact[]): string {
  const functions = channels
    .filter((channel) => channel.address !== null)
    .flatMap((channel) => {
      // The model keeps a channel's actions and its operationIds apart; with one action they pair up.
      if (channel.actions.length !== 1)
        throw new Error(`asyncapi.yaml: channel ${channel.name} is both sent and received on; the client's operation functions need one action per channel`);
      return channel.operationIds.map((operationId) => ({ channel, action: channel.actions[0]!, operationId }));
    })
    .sort((a, b) => a.operationId.localeCompare(b.operationId))
    .map(({ channel, action, operationId }) => (action === 'receive' ? receiveFunction(channel, operationId) : sendFunction(channel, operationId)));
  return `${GENERATED_HEADER}
import type { RealtimeConnection, RealtimeSubscription, SubscribeOptions, SubscriptionHandler } from '../../realtime/realtimeTypes.js';
import type { ChannelParameters, ChannelPayloads } from './asyncapi.js';

${functions.join('\n')}`;
}

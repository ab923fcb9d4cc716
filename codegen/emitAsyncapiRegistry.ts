// generated/asyncapi.ts: the channel registry of asyncapi.yaml (name, address template, parameter
// names, payload type, direction), so publishers and the STOMP router are typed by channel; the
// message documenting each STOMP frame (`x-stomp-command`), so every frame can be checked against it;
// and the delivery guarantees (`x-delivery`: logs, positions, run ends, replay, retention), so the
// server reads which messages end a run from the spec.
import { GENERATED_HEADER, propertyKey } from './naming.js';
import {
  componentName,
  jsonAt,
  resolveObject,
  stompCommands,
  stringOrUndefined,
  templatePattern,
  type AsyncMessageFact,
  type ChannelFact,
  type DeliveryFacts,
  type JsonObject,
} from '../conformance/specModel/index.js';

function stompPath(doc: JsonObject): string {
  const pathname = stringOrUndefined(jsonAt(doc, 'servers', 'stomp', 'pathname'));
  if (!pathname?.startsWith('/')) throw new Error('asyncapi.yaml: servers.stomp.pathname must be a path starting with /');
  return pathname;
}

function emitDelivery({ channels: byChannel, ...common }: DeliveryFacts): string {
  return `
/** \`components.x-delivery\` of asyncapi.yaml: what every log of the channels the server sends on shares (docs/realtime.md, "Delivery guarantees as data"). */
export const delivery = ${JSON.stringify(common, null, 2)} as const;

/** \`x-delivery\` of each channel the server sends on: the log its messages belong to, and the messages that end a generation run. */
export const channelDelivery = ${JSON.stringify(byChannel, null, 2)} as const;

export type DeliveryLogName = keyof typeof delivery.logs;
export type DeliveryChannelName = keyof typeof channelDelivery;
export type RunOutcome = (typeof channelDelivery)[DeliveryChannelName]['endsRun'][number]['outcome'];

/** The outcome of the generation run a message on \`channel\` ends (its \`endsRun\`), or null when it ends none. */
export function runEndOf<C extends DeliveryChannelName>(channel: C, payload: ChannelPayloads[C]): RunOutcome | null {
  const ends: readonly { when: Readonly<Record<string, unknown>>; outcome: RunOutcome }[] = channelDelivery[channel].endsRun;
  const fields = payload as unknown as Record<string, unknown>;
  return ends.find((end) => Object.entries(end.when).every(([key, value]) => fields[key] === value))?.outcome ?? null;
}
`;
}

export function emitAsyncapiRegistry(doc: JsonObject, allChannels: ChannelFact[], messages: AsyncMessageFact[], delivery: DeliveryFacts): string {
  // Destinations only: the channel of the connection's own frames (address null) has no address to fill or match.
  const channels = allChannels.filter((c): c is ChannelFact & { address: string } => c.address !== null);
  const frames = Object.fromEntries(stompCommands.map((command) => [command, messages.filter((m) => m.stompCommand === command).map((m) => m.name)]));
  const payloadOf = (message: string): string => {
    const ref = jsonAt(resolveObject(doc, jsonAt(doc, 'components', 'messages', message)).payload, '$ref');
    return `AsyncSchemas[${JSON.stringify(componentName(ref, 'schemas'))}]`;
  };
  const registry = Object.fromEntries(
    channels.map((c) => [
      c.name,
      {
        address: c.address,
        parameters: c.parameters,
        parameterPatterns: c.parameterPatterns,
        actions: c.actions,
        operationIds: c.operationIds,
        servers: c.servers,
        messages: c.messages,
      },
    ]),
  );
  return `${GENERATED_HEADER}
import type { components } from './asyncapi-types.js';

export type AsyncSchemas = components['schemas'];

/** \`info.version\` of asyncapi.yaml (CONNECTED's \`server\` header quotes its major.minor). */
export const asyncapiVersion = ${JSON.stringify(stringOrUndefined(jsonAt(doc, 'info', 'version')) ?? '')};

/** \`servers.stomp.pathname\` of asyncapi.yaml: where the WebSocket upgrade to STOMP is served. */
export const stompServerPath = ${JSON.stringify(stompPath(doc))};

/** The messages of asyncapi.yaml each STOMP command carries (their \`x-stomp-command\`). */
export const stompFrameMessages = ${JSON.stringify(frames, null, 2)} as const;

export const channels = ${JSON.stringify(registry, null, 2)} as const;

export type ChannelName = keyof typeof channels;
/** The payload type of each channel (the union of its messages' payloads). */
export interface ChannelPayloads {
${channels.map((c) => `  ${propertyKey(c.name)}: ${c.messages.map(payloadOf).join(' | ')};`).join('\n')}
}
/** The message names of each channel, as in components.messages. */
export interface ChannelMessages {
${channels.map((c) => `  ${propertyKey(c.name)}: ${c.messages.map((m) => JSON.stringify(m)).join(' | ')};`).join('\n')}
}
export type ChannelParameters<C extends ChannelName> = { [P in (typeof channels)[C]['parameters'][number]]: string | number };

/** Fills an address template: channelAddress('chatStream', { chatRoomId: 7 }) -> '/user/sub/chat/7'. */
export function channelAddress<C extends ChannelName>(name: C, parameters: ChannelParameters<C>): string {
  return channels[name].address.replace(/\\{([^}]+)\\}/g, (_m, key: string) =>
    encodeURIComponent(String((parameters as Record<string, string | number>)[key])),
  );
}

const matchers: { name: ChannelName; pattern: RegExp }[] = [
${channels.map((c) => `  { name: ${JSON.stringify(c.name)}, pattern: new RegExp(${JSON.stringify(templatePattern(c.address, c.parameterPatterns))}) },`).join('\n')}
];

/**
 * Finds the channel of a concrete destination and extracts its parameters (as strings). A parameter
 * value that breaks the parameter's \`x-pattern\` (e.g. \`03\` for an id) matches no channel.
 */
export function matchChannel(destination: string): { name: ChannelName; parameters: Record<string, string> } | null {
  for (const { name, pattern } of matchers) {
    const match = pattern.exec(destination);
    if (!match) continue;
    const values = match.slice(1).map((v) => decodeURIComponent(v));
    return { name, parameters: Object.fromEntries(channels[name].parameters.map((p, i) => [p, values[i]!])) };
  }
  return null;
}
${emitDelivery(delivery)}`;
}

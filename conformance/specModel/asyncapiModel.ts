// Reads the bundled AsyncAPI document into channel and message facts (codegen, the mock, the runner).
import { componentName, resolveRef } from './jsonPointer.js';
import { placeholderNames } from './template.js';

type Json = any;

export interface AsyncMessageFact {
  name: string;
  /** `x-stomp-command`: the STOMP frame that carries the message (null outside STOMP) */
  stompCommand: string | null;
  /** the payload's $ref; null for a frame without a body */
  payload: Json | null;
  /** the header schema's $ref; null when the message declares no headers */
  headers: Json | null;
  examples: { name: string; payload: Json; headers: Json }[];
}

export interface ChannelFact {
  name: string; // key under `channels`
  /** null for a channel that is not a destination (the STOMP connection's own frames) */
  address: string | null;
  parameters: string[];
  /** `x-pattern` of each parameter that has one (an anchored regular expression a value must match) */
  parameterPatterns: Record<string, string>;
  actions: ('send' | 'receive')[];
  operationIds: string[];
  servers: string[];
  messages: string[]; // component message names
}

const requiredComponentName = (ref: string | undefined, kind: string): string => {
  const name = componentName(ref, kind);
  if (!name) throw new Error(`expected a $ref to #/components/${kind}/..., got ${ref}`);
  return name;
};

/** The STOMP commands a message may be carried by (`x-stomp-command` of every message). */
export const stompCommands = ['CONNECT', 'CONNECTED', 'SUBSCRIBE', 'UNSUBSCRIBE', 'SEND', 'MESSAGE', 'RECEIPT', 'ERROR', 'DISCONNECT'] as const;
export type StompCommandName = (typeof stompCommands)[number];

const namedSchemaRef = (schema: Json, what: string): Json => {
  if (schema === undefined) return null;
  if (!schema?.$ref) throw new Error(`${what} must be a $ref to a named schema`);
  return schema;
};

/** `overStomp: false` for a document whose messages travel elsewhere (the internal events). */
export function readMessages(doc: Json, { overStomp = true } = {}): AsyncMessageFact[] {
  return Object.entries<Json>(doc.components?.messages ?? {}).map(([name, raw]) => {
    const message = resolveRef(doc, raw);
    const stompCommand = message['x-stomp-command'] ?? null;
    if (overStomp && !stompCommands.includes(stompCommand)) throw new Error(`message ${name}: x-stomp-command must be one of ${stompCommands.join(', ')}`);
    return {
      name,
      stompCommand,
      // A frame without a body (CONNECT, RECEIPT, ...) has no payload.
      payload: namedSchemaRef(message.payload, `message ${name}: the payload`),
      headers: namedSchemaRef(message.headers, `message ${name}: the headers`),
      examples: (message.examples ?? []).map((e: Json, i: number) => ({ name: e.name ?? `example${i + 1}`, payload: e.payload, headers: e.headers })),
    };
  });
}

export function readChannels(doc: Json): ChannelFact[] {
  const channels = Object.entries<Json>(doc.channels ?? {}).map(([name, raw]) => {
    const channel = resolveRef(doc, raw);
    const parameters = placeholderNames(String(channel.address ?? ''));
    const parameterPatterns: Record<string, string> = {};
    for (const parameter of parameters) {
      const pattern = channel.parameters?.[parameter] ? resolveRef(doc, channel.parameters[parameter])['x-pattern'] : undefined;
      if (pattern !== undefined) parameterPatterns[parameter] = String(pattern);
    }
    return {
      name,
      address: channel.address === null || channel.address === undefined ? null : String(channel.address),
      parameters,
      parameterPatterns,
      actions: [] as ('send' | 'receive')[],
      operationIds: [] as string[],
      servers: (channel.servers ?? []).map((s: Json) => requiredComponentName(s.$ref?.replace('#/servers/', '#/components/servers/'), 'servers')),
      messages: Object.values<Json>(channel.messages ?? {}).map((m) => requiredComponentName(m.$ref, 'messages')),
    };
  });
  for (const [operationId, raw] of Object.entries<Json>(doc.operations ?? {})) {
    const op = resolveRef(doc, raw);
    const channelName = String(op.channel?.$ref ?? '').replace(/^#\/channels\//, '');
    const channel = channels.find((c) => c.name === channelName);
    if (!channel) throw new Error(`operation ${operationId}: unknown channel ${op.channel?.$ref}`);
    if (!channel.actions.includes(op.action)) channel.actions.push(op.action);
    channel.operationIds.push(operationId);
  }
  return channels;
}

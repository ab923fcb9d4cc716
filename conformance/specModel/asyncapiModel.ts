// Reads the bundled AsyncAPI document into channel and message facts (codegen, the mock, the runner).
import { arrayOrEmpty, isJsonObject, objectOrEmpty, stringOrUndefined, type Json, type JsonObject } from './json.js';
import { componentName, resolveObject } from './jsonPointer.js';
import { placeholderNames } from './template.js';

export interface AsyncMessageFact {
  name: string;
  /** `x-stomp-command`: the STOMP frame that carries the message (null outside STOMP) */
  stompCommand: string | null;
  /** the payload's $ref; null for a frame without a body */
  payload: Json | null;
  /** the header schema's $ref; null when the message declares no headers */
  headers: Json | null;
  examples: { name: string; payload: Json | undefined; headers: Json | undefined }[];
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

const namedSchemaRef = (schema: Json | undefined, what: string): Json => {
  if (schema === undefined) return null;
  if (!isJsonObject(schema) || !schema.$ref) throw new Error(`${what} must be a $ref to a named schema`);
  return schema;
};

const isStompCommand = (value: Json | undefined): value is StompCommandName => stompCommands.some((command) => command === value);

/** `overStomp: false` for a document whose messages travel elsewhere (the internal events). */
export function readMessages(doc: JsonObject, { overStomp = true } = {}): AsyncMessageFact[] {
  return Object.entries(objectOrEmpty(objectOrEmpty(doc.components).messages)).map(([name, raw]) => {
    const message = resolveObject(doc, raw);
    const command = message['x-stomp-command'];
    const stompCommand = stringOrUndefined(command) ?? null;
    if (overStomp && !isStompCommand(command)) throw new Error(`message ${name}: x-stomp-command must be one of ${stompCommands.join(', ')}`);
    return {
      name,
      stompCommand,
      // A frame without a body (CONNECT, RECEIPT, ...) has no payload.
      payload: namedSchemaRef(message.payload, `message ${name}: the payload`),
      headers: namedSchemaRef(message.headers, `message ${name}: the headers`),
      examples: arrayOrEmpty(message.examples)
        .map(objectOrEmpty)
        .map((e, i) => ({ name: stringOrUndefined(e.name) ?? `example${i + 1}`, payload: e.payload, headers: e.headers })),
    };
  });
}

export function readChannels(doc: JsonObject): ChannelFact[] {
  const channels = Object.entries(objectOrEmpty(doc.channels)).map(([name, raw]) => {
    const channel = resolveObject(doc, raw);
    const address = stringOrUndefined(channel.address) ?? null;
    const parameters = placeholderNames(address ?? '');
    const parameterPatterns: Record<string, string> = {};
    const channelParameters = objectOrEmpty(channel.parameters);
    for (const parameter of parameters) {
      const pattern = channelParameters[parameter] ? stringOrUndefined(resolveObject(doc, channelParameters[parameter])['x-pattern']) : undefined;
      if (pattern !== undefined) parameterPatterns[parameter] = pattern;
    }
    return {
      name,
      address,
      parameters,
      parameterPatterns,
      actions: [] as ('send' | 'receive')[],
      operationIds: [] as string[],
      servers: arrayOrEmpty(channel.servers).map((s) =>
        requiredComponentName(stringOrUndefined(objectOrEmpty(s).$ref)?.replace('#/servers/', '#/components/servers/'), 'servers'),
      ),
      messages: Object.values(objectOrEmpty(channel.messages)).map((m) => requiredComponentName(stringOrUndefined(objectOrEmpty(m).$ref), 'messages')),
    };
  });
  for (const [operationId, raw] of Object.entries(objectOrEmpty(doc.operations))) {
    const op = resolveObject(doc, raw);
    const channelRef = stringOrUndefined(objectOrEmpty(op.channel).$ref);
    const channelName = (channelRef ?? '').replace(/^#\/channels\//, '');
    const channel = channels.find((c) => c.name === channelName);
    if (!channel) throw new Error(`operation ${operationId}: unknown channel ${channelRef}`);
    // The spec is checked by the AsyncAPI parser: an operation's action is send or receive.
    const action = op.action as 'send' | 'receive';
    if (!channel.actions.includes(action)) channel.actions.push(action);
    channel.operationIds.push(operationId);
  }
  return channels;
}
